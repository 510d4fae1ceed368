/**
 * The commander tree. Command groups register themselves from src/commands/registry.ts; this
 * file adds what every command shares: global options, usage-on-error, help layout.
 */
import fs from 'node:fs';
import { Command } from 'commander';
import type { Context } from './context.js';
import { addLeafGlobals, addProgramGlobals, collectGlobals, globalFlagsWithValue, HELP_CONFIG } from './commands/global-options.js';
import { modulesFor } from './commands/registry.js';
import { programEpilogue } from './commands/help/topics.js';
import { explainParseError } from './commands/parse-errors.js';
import { addHelpCommand } from './commands/help/command.js';

/** Set by the bundler (scripts/bundle.mjs); undefined when running from src/ or tsc's dist/. */
declare const KACTL_BUNDLED_VERSION: string | undefined;

function readVersion(): string {
  if (typeof KACTL_BUNDLED_VERSION === 'string') return KACTL_BUNDLED_VERSION;
  // package.json sits one folder above both src/ (tests) and dist/ (tsc's output).
  const raw = fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

const PROGRAM_EXAMPLES = `
Examples:
  $ kactl sandbox start                          # a local server; saves and activates the "sandbox" profile
  $ kactl licenses create --amount 10 --expiry 30
  $ kactl client init && kactl client register --username alice --password-stdin --key KEY < pw.txt
  $ kactl profile add prod --base-url https://keyauth.win --app-name MyApp --ownerid AbCdEf1234 --seller-key-stdin
  $ kactl users list -o csv > users.csv
${programEpilogue()}`;

function* walk(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* walk(sub);
}

function fullName(command: Command): string {
  const names: string[] = [];
  for (let cmd: Command | null = command; cmd; cmd = cmd.parent) names.unshift(cmd.name());
  return names.join(' ');
}

/** Global options that take a value: their value is not the command name. */
const OPTIONS_WITH_VALUE = globalFlagsWithValue();

/** The words of the command line that may name commands (`help` first dropped), skipping global options and their values. */
function commandWordsIn(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (OPTIONS_WITH_VALUE.has(arg)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words[0] === 'help' ? words.slice(1) : words;
}

/** The command the user named (`help licenses` names `licenses`), skipping global options before it. */
export function commandNameIn(argv: readonly string[]): string | undefined {
  return commandWordsIn(argv)[0];
}

/** Commands that read the whole tree (completion offers every command's flags). */
const WHOLE_TREE_COMMANDS: ReadonlySet<string> = new Set(['completion', '__complete']);

export async function buildProgram(ctx: Context, argv: readonly string[]): Promise<Command> {
  const program = new Command('kactl')
    .description('Manage and test KeyAuth-style licensing services: seller API, client flows, and a local sandbox server.')
    .version(readVersion(), '-V, --version', 'print the version')
    .enablePositionalOptions()
    .configureHelp(HELP_CONFIG)
    .addHelpText('after', PROGRAM_EXAMPLES);
  addProgramGlobals(program);

  const commandName = commandNameIn(argv);
  const modules = modulesFor(commandName, argv);
  const registrars = await Promise.all(modules.map((module) => module.load()));
  // One module: the owner of the named command (several: the listing, or a name nobody owns).
  const only = modules.length === 1 ? commandName : undefined;
  for (const register of registrars) register(program, ctx, only);

  // Commander copies these settings to a subcommand only when it is created, so each command
  // gets them here. Only the commands a run can reach are set up: the program, the branch the
  // command line names and their children (a parent's help lists its children's usage); a
  // branch commander dispatches to later gets them in its parent's preSubcommand hook. Setting
  // up all ~200 commands cost most of a group's `--help`. Completion walks the whole tree.
  const configured = new WeakSet<Command>();
  const configure = (command: Command): void => {
    if (configured.has(command)) return;
    configured.add(command);
    command.exitOverride();
    command.configureHelp(HELP_CONFIG);
    command.configureOutput({
      writeOut: (text) => ctx.io.out(text),
      writeErr: (text) => ctx.io.err(text),
      // A parse error as our own errors read: one sentence, then the hints (a did-you-mean).
      outputError: (text) => {
        const { message, hints } = explainParseError(text, command);
        ctx.output.error(message);
        for (const hint of hints) ctx.output.hint(hint);
      },
    });
    // Usage, not the whole help, after a bad flag or a missing argument.
    command.showHelpAfterError(`Usage: ${fullName(command)} ${command.usage()}\nRun '${fullName(command)} --help' for details.`);
    if (command !== program && command.commands.length === 0) addLeafGlobals(command);
    // Ours reads every word (`kactl help licenses create`); set up with the others below.
    if (command.commands.length > 0) addHelpCommand(command, ctx);
  };
  const branchHooked = new WeakSet<Command>();
  const configureBranch = (command: Command): void => {
    configure(command);
    for (const sub of command.commands) configure(sub);
    if (command.commands.length > 0 && !branchHooked.has(command)) {
      branchHooked.add(command);
      command.hook('preSubcommand', (_parent, sub) => configureBranch(sub));
    }
  };
  // An empty command line asks for the whole tree (completion and tests read it).
  if (argv.length === 0 || WHOLE_TREE_COMMANDS.has(commandNameIn(argv) ?? '')) {
    for (const command of walk(program)) configure(command);
  } else {
    configureBranch(program);
    // `help licenses` prints licenses' help without a dispatch (no hook runs): set up the named
    // branch now.
    let node = program;
    for (const word of commandWordsIn(argv)) {
      // `kactl licenses help create` names create, as `kactl help licenses create` does.
      if (word === 'help') continue;
      const sub = node.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!sub) break;
      configureBranch(sub);
      node = sub;
    }
  }

  program.hook('preAction', (_program, actionCommand) => {
    ctx.setGlobals(collectGlobals(actionCommand));
    ctx.currentCommand = fullName(actionCommand);
  });
  return program;
}
