/**
 * The packages a cold start must not load, in one list: `kactl --version` and `--help` load none
 * of them (test/unit/cold-start.test.ts), and a command file reaches them only through a lazy
 * `import()` (test/unit/lazy-imports.test.ts). Each costs milliseconds to load at start: an HTTP
 * client, prompts, QR and table rendering, the config store, SQLite, TOTP, jq (WebAssembly),
 * YAML and X.509.
 */
export const HEAVY_PACKAGES = [
  'undici',
  '@inquirer/prompts',
  '@inquirer/core',
  'qrcode-terminal',
  'cli-table3',
  'conf',
  'better-sqlite3',
  'otpauth',
  'jq-wasm',
  'yaml',
  '@peculiar/x509',
];
