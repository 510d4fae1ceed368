/**
 * The commander tree. Command groups register themselves from src/commands/registry.ts; this
 * file adds what every command shares: global options, usage-on-error, help layout
 * (src/commands/help/layout.ts).
 */
import fs from 'node:fs';
import { Command } from 'commander';
import type { Context } from './context.js';
import { addLeafGlobals, addProgramGlobals, collectGlobals, globalFlagsWithValue } from './commands/global-options.js';
import { HELP_HEADINGS, modulesFor } from './commands/registry.js';
import type { MainFn, Shell } from './commands/registration.js';
import { programEpilogue } from './commands/help/epilogue.js';
import { HELP_CONFIG, helpWidthOf, layoutHelpText } from './commands/help/layout.js';
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
  $ kactl sandbox start  # a local server; saves the "sandbox" profile
  $ kactl licenses create --amount 10 --expiry 30
  $ kactl client init
  $ kactl client register --username alice --password-stdin --key KEY < pw.txt
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

/** Built to be read, never run (the help written at build, tests that walk the tree): nothing can run a command line. */
const notRunnable: MainFn = () => Promise.reject(new Error('This command tree was built without a way to run kactl in this process.'));

/** Adds the modules the command line needs, each under its heading of `kactl --help`. */
async function registerModules(program: Command, ctx: Context, argv: readonly string[], main: MainFn): Promise<void> {
  const modules = modulesFor(commandNameIn(argv), argv);
  const registrars = await Promise.all(modules.map((module) => module.load()));
  const shell: Shell = { main, buildProgram: (c, words) => buildProgram(c, words, main) };
  // One module: the owner of the named command, told the words so it adds only what they reach
  // (several: the listing, or a name nobody owns, which needs every name to suggest one).
  const words = modules.length === 1 ? commandWordsIn(argv) : undefined;
  for (const [index, register] of registrars.entries()) {
    const before = new Set(program.commands);
    register(program, ctx, { ...(words === undefined ? {} : { words }), shell });
    for (const command of program.commands) if (!before.has(command)) command.helpGroup(modules[index]!.heading);
  }
}

/**
 * Sets a command up as every command is: errors as kactl's, help laid out at the width it is
 * read at, the global options on a leaf, `help` on a group. Commander copies these settings to
 * a subcommand only when it is created, so each command gets them here, once.
 */
function commandSetup(ctx: Context, program: Command): (command: Command) => void {
  const configured = new WeakSet<Command>();
  return (command) => {
    if (configured.has(command)) return;
    configured.add(command);
    command.exitOverride();
    command.configureHelp(HELP_CONFIG);
    command.configureOutput({
      // Only help and the version reach these: laid out at the width they are read at.
      writeOut: (text) => ctx.io.out(layoutHelpText(text, helpWidthOf(ctx.io, 'out'))),
      writeErr: (text) => ctx.io.err(layoutHelpText(text, helpWidthOf(ctx.io, 'err'))),
      getOutHelpWidth: () => helpWidthOf(ctx.io, 'out'),
      getErrHelpWidth: () => helpWidthOf(ctx.io, 'err'),
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
    if (command.commands.length > 0) {
      const help = addHelpCommand(command, ctx);
      if (command === program) help.helpGroup(HELP_HEADINGS.setup);
    }
  };
}

/**
 * Sets up the commands a run can reach: the program, the branch the command line names and
 * their children (a parent's help lists its children's usage); a branch commander dispatches to
 * later gets them in its parent's preSubcommand hook. Setting up all ~200 commands cost most of
 * a group's `--help`. Completion walks the whole tree.
 */
function setUpReached(ctx: Context, program: Command, argv: readonly string[]): void {
  const configure = commandSetup(ctx, program);
  // An empty command line asks for the whole tree (completion and tests read it).
  if (argv.length === 0 || WHOLE_TREE_COMMANDS.has(commandNameIn(argv) ?? '')) {
    for (const command of walk(program)) configure(command);
    return;
  }
  const branchHooked = new WeakSet<Command>();
  const configureBranch = (command: Command): void => {
    configure(command);
    for (const sub of command.commands) configure(sub);
    if (command.commands.length > 0 && !branchHooked.has(command)) {
      branchHooked.add(command);
      command.hook('preSubcommand', (_parent, sub) => configureBranch(sub));
    }
  };
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

/**
 * The tree a command line needs (the whole one for `[]`). `main` (src/cli.ts) is handed down
 * to the commands that run kactl again (the demo, `kactl test`): see commands/registration.ts.
 */
export async function buildProgram(ctx: Context, argv: readonly string[], main: MainFn = notRunnable): Promise<Command> {
  const program = new Command('kactl')
    .description('Manage and test KeyAuth-style licensing services: seller API, client flows, and a local sandbox server.')
    .version(readVersion(), '-V, --version', 'print the version')
    .enablePositionalOptions()
    .configureHelp(HELP_CONFIG)
    .addHelpText('after', PROGRAM_EXAMPLES);
  addProgramGlobals(program);
  await registerModules(program, ctx, argv, main);
  setUpReached(ctx, program, argv);
  program.hook('preAction', (_program, actionCommand) => {
    ctx.setGlobals(collectGlobals(actionCommand));
    ctx.currentCommand = fullName(actionCommand);
  });
  return program;
}
