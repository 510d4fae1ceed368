/**
 * Every command group, in the order `kactl --help` lists them, and which top-level names each
 * module registers. Modules are imported only when the command line needs them: `kactl
 * profile list` loads the profile commands and nothing else, `kactl --version` loads none
 * (cold start is a measured figure of this project).
 */
import type { RegisterCommands } from './registration.js';
import { SELLER_GROUP_NAMES } from './seller/group-names.js';

export { SELLER_GROUP_NAMES };

/** The headings `kactl --help` lists the top-level commands under, in this order. */
export const HELP_HEADINGS = {
  seller: 'Seller API:',
  client: 'Client flows:',
  testing: 'Sandbox and testing:',
  state: 'State files:',
  setup: 'Setup:',
} as const;

export interface CommandModule {
  /** The top-level commands the module adds. */
  readonly names: readonly string[];
  /** Where `kactl --help` lists them (hidden commands are not listed). */
  readonly heading: (typeof HELP_HEADINGS)[keyof typeof HELP_HEADINGS];
  load(): Promise<RegisterCommands>;
}

/** In the order `kactl --help` lists them: each heading's modules together, headings as HELP_HEADINGS. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { names: SELLER_GROUP_NAMES, heading: HELP_HEADINGS.seller, load: async () => (await import('./seller/index.js')).registerSellerGroups },
  { names: ['seller'], heading: HELP_HEADINGS.seller, load: async () => (await import('./seller/call.js')).registerSellerCall },
  { names: ['client'], heading: HELP_HEADINGS.client, load: async () => (await import('./client/index.js')).registerClientCommands },
  { names: ['sandbox'], heading: HELP_HEADINGS.testing, load: async () => (await import('./sandbox/index.js')).registerSandboxCommands },
  { names: ['test'], heading: HELP_HEADINGS.testing, load: async () => (await import('./flows/index.js')).registerTestCommand },
  { names: ['reseller'], heading: HELP_HEADINGS.testing, load: async () => (await import('./reseller/index.js')).registerResellerCommands },
  { names: ['demo'], heading: HELP_HEADINGS.testing, load: async () => (await import('./demo.js')).registerDemoCommand },
  { names: ['apply', 'export', 'restore', 'schema'], heading: HELP_HEADINGS.state, load: async () => (await import('./state/index.js')).registerStateCommands },
  { names: ['profile'], heading: HELP_HEADINGS.setup, load: async () => (await import('./profile/index.js')).registerProfileCommands },
  { names: ['doctor'], heading: HELP_HEADINGS.setup, load: async () => (await import('./doctor/index.js')).registerDoctorCommand },
  { names: ['completion', '__complete'], heading: HELP_HEADINGS.setup, load: async () => (await import('./completion/index.js')).registerCompletionCommands },
  { names: ['version'], heading: HELP_HEADINGS.setup, load: async () => (await import('./version.js')).registerVersionCommand },
  { names: ['environment', 'exit-codes', 'lists', 'global-options'], heading: HELP_HEADINGS.setup, load: async () => (await import('./help/index.js')).registerHelpTopics },
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
