/**
 * Every environment variable kactl reads, in one place (docs/contracts.md, "Configuration").
 * Values are read on each call from the record given (process.env in production, a plain
 * object in tests), never memoised, and an empty string counts as unset.
 */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

/**
 * The data folder's name inside `$KACTL_CONFIG_DIR` when only that is set (one variable isolates
 * a test run). src/config/paths.ts builds the folder with it and the help below says it with it.
 */
export const DATA_DIR_IN_CONFIG_DIR = 'data';

export const ENV_VARS = {
  KACTL_CONFIG_DIR: `Folder for the config file (default: the XDG config folder, kactl/); unless KACTL_DATA_DIR is set, the data folder is its ${DATA_DIR_IN_CONFIG_DIR}/ subfolder`,
  KACTL_DATA_DIR: `Folder for backups and the sandbox store (default: $KACTL_CONFIG_DIR/${DATA_DIR_IN_CONFIG_DIR} when KACTL_CONFIG_DIR is set, else the XDG data folder, kactl/)`,
  KACTL_PROFILE: 'Profile to use instead of the active one',
  KACTL_BASE_URL: 'Server base URL, e.g. https://keyauth.win or http://127.0.0.1:8787',
  KACTL_SELLER_KEY: 'Seller API key (32 characters)',
  KACTL_APP_NAME: 'Application name for the client API',
  KACTL_OWNERID: 'Application owner id (10 characters)',
  KACTL_APP_VERSION: 'Application version sent at init',
  KACTL_PUBLIC_KEY: 'Ed25519 public key (hex) that signs the server\'s 1.3 responses',
  KACTL_APP_SECRET: 'Application secret (64 hex) that checks the server\'s 1.2 HMAC signatures',
  KACTL_SELLER_RATE: 'Seller calls a minute kactl allows itself per seller key (0: no pacing; default 120)',
  KACTL_RETRIES: 'Times kactl tries a call again after a rate limit or a dropped connection (0 to 5; default 2; kactl sandbox exec sets 0 for its command)',
  KACTL_CA_FILE: 'Certificate authority (PEM file) trusted instead of the system\'s for HTTPS to the server KACTL_BASE_URL names (a --tls sandbox\'s)',
  KACTL_ADMIN_TOKEN: 'Admin token of a sandbox (kactl sandbox ui, logs, fault, outbox, clock), instead of the one its profile saved',
  NO_COLOR: 'Turn colour off',
  FORCE_COLOR: 'Turn colour on even when stdout is not a terminal',
  CI: 'Set by CI systems; kactl never prompts when it is set',
  COLUMNS: "Width of the terminal to lay out help, tables and notes for, instead of the one it reports (output to a pipe or a file is not wrapped to it: help there is 80 columns wide)",
} as const;
export type EnvVarName = keyof typeof ENV_VARS;

/** The value of `name`, or undefined when it is unset or empty. */
export function readEnv(env: EnvRecord, name: EnvVarName): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** True when the variable is set to anything but an empty string, "0" or "false". */
export function envFlag(env: EnvRecord, name: EnvVarName): boolean {
  const value = readEnv(env, name);
  return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}
