/**
 * Every command group, in the order `kactl --help` lists them, and which top-level names each
 * module registers. Modules are imported only when the command line needs them: `kactl
 * profile list` loads the profile commands and nothing else, `kactl --version` loads none
 * (cold start is a measured figure of this project).
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';

/**
 * Adds a module's commands. `only`: the one top-level command the command line names, when the
 * module owns it; a module with several may add just that one (the others cannot be reached).
 */
export type RegisterCommands = (program: Command, ctx: Context, only?: string) => void;

export interface CommandModule {
  /** The top-level commands the module adds. */
  readonly names: readonly string[];
  load(): Promise<RegisterCommands>;
}

/** The seller API's groups (SellerGroup in the catalog; test/unit/cli/registry.test.ts keeps them equal). */
export const SELLER_GROUP_NAMES = ['app', 'licenses', 'users', 'subs', 'uservars', 'vars', 'sessions', 'files', 'webhooks', 'chats', 'blacklists', 'whitelists', 'loader', 'logs', 'team'] as const;

export const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ['profile'], load: async () => (await import('./profile/index.js')).registerProfileCommands },
  { names: ['client'], load: async () => (await import('./client/index.js')).registerClientCommands },
  { names: SELLER_GROUP_NAMES, load: async () => (await import('./seller/index.js')).registerSellerGroups },
  { names: ['seller'], load: async () => (await import('./seller/call.js')).registerSellerCall },
  { names: ['reseller'], load: async () => (await import('./reseller/index.js')).registerResellerCommands },
  { names: ['sandbox'], load: async () => (await import('./sandbox/index.js')).registerSandboxCommands },
  { names: ['demo'], load: async () => (await import('./demo.js')).registerDemoCommand },
  { names: ['version'], load: async () => (await import('./version.js')).registerVersionCommand },
  { names: ['environment', 'exit-codes', 'lists'], load: async () => (await import('./help/index.js')).registerHelpTopics },
  { names: ['doctor'], load: async () => (await import('./doctor/index.js')).registerDoctorCommand },
  { names: ['completion', '__complete'], load: async () => (await import('./completion/index.js')).registerCompletionCommands },
  { names: ['apply', 'export', 'restore', 'schema'], load: async () => (await import('./state/index.js')).registerStateCommands },
  { names: ['test'], load: async () => (await import('./flows/index.js')).registerTestCommand },
];

const VERSION_FLAGS = new Set(['-V', '--version']);

/**
 * The modules a command line needs: the one owning its command; none for `--version`; all of
 * them for the help listing and for a name nobody owns (so commander can suggest one).
 */
export function modulesFor(commandName: string | undefined, argv: readonly string[]): readonly CommandModule[] {
  if (commandName === undefined) return argv.some((arg) => VERSION_FLAGS.has(arg)) ? [] : COMMAND_MODULES;
  const owner = COMMAND_MODULES.find((module) => module.names.includes(commandName));
  return owner ? [owner] : COMMAND_MODULES;
}
