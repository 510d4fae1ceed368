/**
 * Every example kactl shows holds against the command tree: each `$ kactl …` line of every
 * command's help (the program's too) and each kactl command line of README.md and docs/*.md
 * (in ```sh and ```text blocks, and in `kactl …` code spans) parses as the real command line
 * would: the command exists, every flag is one it takes, values pass their checks, and the count
 * of arguments fits. Commands nested in an example are checked too (`$(kactl …)`, `sh -c 'kactl
 * …'`, after `sandbox exec --`). Nothing is run here: the ```sh blocks of README.md and
 * docs/testing-your-program.md also run as written (test/e2e/readme.test.ts, testing-doc.test.ts),
 * and examples that need a terminal or a hosted account can only be checked this way.
 *
 * And no example stops sandboxes it did not start: `sandbox stop --all` appears only in
 * `kactl sandbox stop --help`, where it is the flag being shown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { kactlCommands } from '../../helpers/example-commands.js';
import { runMain } from '../../helpers/run-main.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

interface Example {
  /** Where it is shown: `kactl users list --help`, `README.md:54`. */
  readonly where: string;
  readonly line: string;
  /**
   * `run`: a command line as a reader pastes it (help examples, ```sh blocks): it must parse in
   * full. `synopsis`: a ```text block or a `kactl …` code span, with placeholders (`--code C`,
   * `[--json]`) or only a command's name: its command must exist and take every flag it shows.
   */
  readonly kind: 'run' | 'synopsis';
}

function* commandsOf(command: Command, words: readonly string[] = []): Generator<readonly string[]> {
  yield words;
  for (const sub of command.commands) yield* commandsOf(sub, [...words, sub.name()]);
}

async function program(argv: readonly string[]): Promise<{ program: Command; stderr: () => string }> {
  const err = new PassThrough();
  let said = '';
  err.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: err, env: {}, signal: new AbortController().signal, now: Date.now });
  return { program: await buildProgram(ctx, argv), stderr: () => said };
}

let helpExamplesRead: Promise<Example[]> | undefined;

/** The `$ …` lines of every command's help (read once for the file). */
function helpExamples(): Promise<Example[]> {
  helpExamplesRead ??= readHelpExamples();
  return helpExamplesRead;
}

async function readHelpExamples(): Promise<Example[]> {
  const examples: Example[] = [];
  const { program: tree } = await program([]);
  for (const words of commandsOf(tree)) {
    if (words[0] === '__complete') continue;
    const { stdout } = await runMain([...words, '--help']);
    // Help breaks a long example between shell words with ` \` (help/layout.ts): joined again, as a shell reads it.
    for (const match of stdout.matchAll(/^\s+\$ ((?:.* \\\n)*.+)$/gm)) examples.push({ where: `kactl ${[...words, '--help'].join(' ')}`, line: match[1]!.replace(/ \\\n\s*/g, ' '), kind: 'run' });
  }
  return examples;
}

/** Command lines of the README and docs/*.md: lines of ```sh and ```text blocks, and `kactl …` code spans. */
function docExamples(): Example[] {
  const pages = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const examples: Example[] = [];
  for (const page of pages) {
    const lines = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
    let block: string | undefined;
    let continued = '';
    lines.forEach((text, index) => {
      const fence = /^```(\S*)/.exec(text);
      if (fence) {
        block = block === undefined ? fence[1]! : undefined;
        return;
      }
      const where = `${page}:${index + 1}`;
      if (block === 'sh' || block === 'text') {
        // A line ending in a backslash goes on.
        if (text.endsWith('\\')) {
          continued += `${text.slice(0, -1)} `;
          return;
        }
        const line = continued + text;
        continued = '';
        if (/\bkactl\b/.test(line)) examples.push({ where, line, kind: block === 'sh' ? 'run' : 'synopsis' });
        return;
      }
      if (block !== undefined) return;
      for (const span of text.matchAll(/`(kactl [^`]+)`/g)) examples.push({ where, line: span[1]!, kind: 'synopsis' });
    });
  }
  return examples;
}

/**
 * Why a synopsis does not hold: its words do not lead to a command, or it shows a flag that
 * command does not take (placeholders and brackets aside); undefined when it holds.
 */
async function synopsisProblem(argv: readonly string[]): Promise<string | undefined> {
  const { program: tree } = await program(argv);
  let command: Command = tree;
  let at = 0;
  for (; at < argv.length && !argv[at]!.startsWith('-'); at++) {
    const sub = command.commands.find((one) => one.name() === argv[at] || one.aliases().includes(argv[at]!));
    if (sub === undefined) break;
    command = sub;
  }
  // `kactl …`: an elided command line, not a command.
  if (argv[0] === '…') return undefined;
  if (command === tree && at < argv.length && !argv[at]!.startsWith('-')) return `no command "${argv[at]}"`;
  if (command.commands.length > 0 && at < argv.length && !argv[at]!.startsWith('-')) return `"${argv.slice(0, at).join(' ')}" has no command "${argv[at]}"`;
  const flags = new Set(['--help', '-h', ...[command, tree].flatMap((one) => one.options.flatMap((option) => [option.long, option.short]))].filter((flag): flag is string => flag !== undefined));
  for (const word of argv.slice(at)) {
    if (word === '--') break;
    const flag = word.replace(/^[[(]+/, '').replace(/[\])]+$/, '').split('=')[0]!;
    if (/^--?[a-z]/i.test(flag) && !flags.has(flag)) return `${['kactl', ...argv.slice(0, at)].join(' ')} takes no ${flag}`;
  }
  return undefined;
}

/** Why `argv` does not parse, or undefined when it does. */
async function parseProblem(argv: readonly string[]): Promise<string | undefined> {
  const { program: tree, stderr } = await program(argv);
  for (const words of commandsOf(tree)) {
    let command: Command = tree;
    for (const word of words) command = command.commands.find((sub) => sub.name() === word)!;
    // Parsed only: no command runs.
    if (command.commands.length === 0 && words.length > 0 && words[0] !== 'help') command.action(() => undefined);
  }
  try {
    await tree.parseAsync([...argv], { from: 'user' });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) return undefined;
    return stderr().trim() || (error as Error).message;
  }
}

async function problemsOf(examples: readonly Example[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { where, line, kind } of examples) {
    let commands: string[][];
    try {
      commands = kactlCommands(line);
    } catch (error) {
      problems.push(`${where}: ${line}\n    cannot be read as a command line: ${(error as Error).message}`);
      continue;
    }
    for (const argv of commands) {
      const problem = kind === 'run' ? await parseProblem(argv) : await synopsisProblem(argv);
      if (problem !== undefined) problems.push(`${where}: kactl ${argv.join(' ')}\n    ${problem.replace(/\n/g, '\n    ')}`);
    }
  }
  return problems;
}

describe('examples', () => {
  it('reads kactl command lines out of a shell line as bash splits them', () => {
    expect(kactlCommands(`KEY=$(kactl licenses create --amount 1 --expiry 30) && kactl client init 2> /dev/null # note`)).toEqual([
      ['licenses', 'create', '--amount', '1', '--expiry', '30'],
      ['client', 'init'],
    ]);
    expect(kactlCommands(`kactl sandbox exec --fault forge-signature:login -- sh -c 'kactl client init && kactl client login --username "a b"' || echo "exit $?"`)).toEqual([
      ['sandbox', 'exec', '--fault', 'forge-signature:login', '--', 'sh', '-c', 'kactl client init && kactl client login --username "a b"'],
      ['client', 'init'],
      ['client', 'login', '--username', 'a b'],
    ]);
    expect(kactlCommands('printf \'%s\\n\' pw | kactl client register --username alice --password-stdin >out.txt')).toEqual([['client', 'register', '--username', 'alice', '--password-stdin']]);
  });

  it("every `$ kactl …` line of every command's help parses against the command tree", async () => {
    const examples = await helpExamples();
    expect(examples.length).toBeGreaterThan(200);
    expect(await problemsOf(examples)).toEqual([]);
  }, 240_000);

  it('every kactl command line of README.md and docs/*.md parses against the command tree', async () => {
    const examples = docExamples();
    expect(examples.filter((example) => example.kind === 'run').length).toBeGreaterThan(20);
    expect(examples.length).toBeGreaterThan(200);
    expect(await problemsOf(examples)).toEqual([]);
  }, 240_000);

  it('no example stops sandboxes it did not start (`sandbox stop --all` only where the flag is shown)', async () => {
    const everywhere = [...(await helpExamples()), ...docExamples()];
    const stopsAll = everywhere.filter(({ line }) => kactlCommands(line).some((argv) => argv[0] === 'sandbox' && argv[1] === 'stop' && argv.includes('--all')));
    expect(stopsAll.map((example) => example.where)).toEqual(['kactl sandbox stop --help']);
  }, 240_000);
});
