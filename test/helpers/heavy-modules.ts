/**
 * The packages a cold start must not load, in one list: `kactl --version` and `--help` load none
 * of them (test/unit/cold-start.test.ts), and a command file reaches them only through a lazy
 * `import()` (test/unit/lazy-imports.test.ts). Each costs milliseconds to load at start: an HTTP
 * client, prompts, QR and table rendering, SQLite, TOTP, jq (WebAssembly),
 * YAML and X.509.
 */
export const HEAVY_PACKAGES = [
  'undici',
  '@inquirer/prompts',
  '@inquirer/core',
  'qrcode-terminal',
  'cli-table3',
  'better-sqlite3',
  'otpauth',
  'jq-wasm',
  'yaml',
  '@peculiar/x509',
  '@peculiar/asn1-x509',
  '@peculiar/asn1-schema',
];

/**
 * Node built-ins `kactl --help` does not load, each pulling in a cascade of Node's own modules
 * (node:crypto alone some fifteen, node:child_process dgram and net): measured with
 * `process.moduleLoadList` against main's build. A module that imports one is heavy too.
 */
export const HEAVY_BUILTINS = [
  'node:crypto',
  'node:child_process',
  'node:readline',
  'node:readline/promises',
  'node:fs/promises',
  'node:timers/promises',
  'node:dgram',
  'node:dns',
  'node:http',
  'node:https',
  'node:http2',
  'node:tls',
  'node:zlib',
  'node:worker_threads',
];
