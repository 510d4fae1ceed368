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

/** The command the user named (`help licenses` names `licenses`), skipping global options before it. */
export function commandNameIn(argv: readonly string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (OPTIONS_WITH_VALUE.has(arg)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words[0] === 'help' ? words[1] : words[0];
}

export async function buildProgram(ctx: Context, argv: readonly string[]): Promise<Command> {
  const program = new Command('kactl')
    .description('Manage and test KeyAuth-style licensing services: seller API, client flows, and a local sandbox server.')
    .version(readVersion(), '-V, --version', 'print the version')
    .enablePositionalOptions()
    .configureHelp(HELP_CONFIG)
    .addHelpText('after', PROGRAM_EXAMPLES);
  addProgramGlobals(program);

  const modules = modulesFor(commandNameIn(argv), argv);
  const registrars = await Promise.all(modules.map((module) => module.load()));
  for (const register of registrars) register(program, ctx);

  for (const command of walk(program)) {
    // Commander copies these settings to a subcommand only when it is created: set them on all.
    command.exitOverride();
    command.configureHelp(HELP_CONFIG);
    command.configureOutput({
      writeOut: (text) => ctx.io.out(text),
      writeErr: (text) => ctx.io.err(text),
      outputError: (text, write) => write(text),
    });
    // Usage, not the whole help, after a bad flag or a missing argument.
    command.showHelpAfterError(`Usage: ${fullName(command)} ${command.usage()}\nRun '${fullName(command)} --help' for details.`);
    if (command !== program && command.commands.length === 0) addLeafGlobals(command);
  }

  program.hook('preAction', (_program, actionCommand) => {
    ctx.setGlobals(collectGlobals(actionCommand));
    ctx.currentCommand = fullName(actionCommand);
  });
  return program;
}
