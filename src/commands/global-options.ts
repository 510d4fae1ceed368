/**
 * The global options, defined once. They are accepted before the command (on the program) and
 * after it (hidden on every leaf command), because the program uses positional options. A leaf
 * may still define a flag of the same name with its own meaning (`sandbox start --app-name`);
 * help lists such a flag once (help/layout.ts), and test/unit/cli/help-flags.test.ts keeps `-o` the
 * output format and `--timeout` the request timeout on every leaf.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { DEFAULT_GLOBALS } from '../context.js';
import { OUTPUT_FORMATS } from '../io/format.js';
import { durationHint, positiveSeconds } from '../util/duration.js';
import { parseBaseUrl } from '../config/base-url.js';
import { completeFrom, PROFILE_NAMES } from './completion/value-source.js';

/** Commander parser: `15` (seconds), `15s`, `500ms`, `2m`, `1h`, `7d`, `2w` → seconds above zero; anything else is a usage error. */
export function parseDurationSeconds(raw: string): number {
  const seconds = positiveSeconds(raw);
  if (seconds === undefined) throw new InvalidArgumentError(durationHint('seconds'));
  return seconds;
}

interface GlobalOptionDef {
  /** Attribute name in GlobalOptions (commander's camelCase of the long flag). */
  key: keyof GlobalOptions;
  make: (withShort: boolean) => Option;
}

const DEFS: readonly GlobalOptionDef[] = [
  { key: 'profile', make: () => completeFrom(new Option('--profile <name>', 'use this profile instead of the active one'), PROFILE_NAMES) },
  { key: 'json', make: () => new Option('--json', "print the server's JSON (lists: a JSON array)") },
  {
    key: 'output',
    make: (withShort) =>
      new Option(`${withShort ? '-o, ' : ''}--output <format>`, 'output format for lists and records').choices(OUTPUT_FORMATS),
  },
  { key: 'yes', make: (withShort) => new Option(`${withShort ? '-y, ' : ''}--yes`, 'answer yes to confirmations (needed without a terminal)') },
  { key: 'verbose', make: () => new Option('--verbose', 'print each request (secrets masked) and stack traces to stderr') },
  { key: 'color', make: () => new Option('--no-color', 'no colour (NO_COLOR works too)') },
  { key: 'baseUrl', make: () => new Option('--base-url <url>', 'server base URL (overrides KACTL_BASE_URL and the profile)').argParser(parseBaseUrl) },
  { key: 'timeout', make: () => new Option('--timeout <duration>', 'request timeout, e.g. 15s (default 15s)').argParser(parseDurationSeconds) },
  { key: 'appName', make: () => new Option('--app-name <name>', 'application name for the client API') },
  { key: 'ownerid', make: () => new Option('--ownerid <id>', 'application owner id for the client API') },
  { key: 'appVersion', make: () => new Option('--app-version <version>', 'application version sent at init') },
  { key: 'publicKey', make: () => new Option('--public-key <hex>', "Ed25519 public key of the server's 1.3 signatures") },
  { key: 'verify', make: () => new Option('--no-verify', 'do not check response signatures (warns)') },
  { key: 'header', make: () => new Option('--no-header', 'leave out the header row of tsv and csv output (piped lists are tsv)') },
];

/** Every global option as the program has it (`kactl help global-options` lists them). */
export function globalOptions(): Option[] {
  return DEFS.map((def) => def.make(true));
}

/** The global flags that take a value (`--profile`, `-o`, `--output`, …): the next word is theirs. */
export function globalFlagsWithValue(): Set<string> {
  const flags = new Set<string>();
  for (const def of DEFS) {
    const option = def.make(true);
    if (!option.required && !option.optional) continue;
    for (const flag of [option.short, option.long]) if (flag !== undefined) flags.add(flag);
  }
  return flags;
}

/** Add the global options to the program, shown in its help. */
export function addProgramGlobals(program: Command): void {
  for (const def of DEFS) program.addOption(def.make(true));
}

/**
 * Add the global options to a leaf command, hidden from its help (the help shows them once,
 * under "Global Options"). A leaf that already defines a flag keeps its own meaning of it.
 */
export function addLeafGlobals(leaf: Command): void {
  const taken = new Set(leaf.options.flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)));
  for (const def of DEFS) {
    const withShort = def.key === 'output' ? !taken.has('-o') : def.key === 'yes' ? !taken.has('-y') : true;
    const option = def.make(withShort);
    if (option.long && taken.has(option.long)) continue;
    leaf.addOption(option.hideHelp());
  }
}

/**
 * The global options as given, wherever they were given: the nearest command (leaf first) on
 * which the user set the option wins; defaults only when it was set nowhere.
 */
export function collectGlobals(leaf: Command): GlobalOptions {
  const chain: Command[] = [];
  for (let cmd: Command | null = leaf; cmd; cmd = cmd.parent) chain.push(cmd);
  const result: Record<string, unknown> = { ...DEFAULT_GLOBALS };
  for (const def of DEFS) {
    const setter = chain.find((cmd) => cmd.getOptionValueSource(def.key) === 'cli' && hasGlobal(cmd, def.key));
    if (setter) result[def.key] = setter.getOptionValue(def.key);
  }
  // A list or record command's `--json FIELDS` (seller/list-view-options.ts): JSON output; the
  // command reads its fields itself.
  if (typeof result.json === 'string') result.json = true;
  return result as unknown as GlobalOptions;
}

/** The option stored under `key` on this command is our global one (not a leaf's own flag). */
function hasGlobal(cmd: Command, key: keyof GlobalOptions): boolean {
  const def = DEFS.find((d) => d.key === key);
  const long = def?.make(false).long;
  return cmd.options.some((o) => o.long === long && o.attributeName() === key);
}
