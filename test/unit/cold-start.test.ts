/**
 * `kactl --version` and `kactl --help` load no HTTP client, prompt, QR, table, config or SQLite
 * module: the CLI's cold start is a measured figure of this project (bench/cold-start.mjs).
 *
 * The CLI runs from a bundle (dist/bundle/, scripts/bundle.mjs): a loaded chunk stands for the
 * sources esbuild put in it, which its metafile (dist/bundle/meta.json) lists.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEAVY_PACKAGES } from '../helpers/heavy-modules.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const RECORDER = path.resolve(import.meta.dirname, '../fixtures/cli/record-imports.mjs');
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

function readMetafile(): Metafile {
  const file = path.join(ROOT, 'dist/bundle/meta.json');
  if (!fs.existsSync(file)) throw new Error('dist/bundle/meta.json is missing: run `npm run build` first.');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Metafile;
}

/** A loaded URL, or for a bundle chunk the (root-relative) sources inside it. */
function sourcesOf(urls: string[]): string[] {
  const meta = readMetafile();
  return urls.flatMap((url) => {
    if (!url.startsWith('file:')) return [url];
    const relative = path.relative(ROOT, fileURLToPath(url)).split(path.sep).join('/');
    const output = meta.outputs[relative];
    return output ? Object.keys(output.inputs).map((input) => `/${input}`) : [url];
  });
}

function loadedModules(args: string[], status = 0, env: Record<string, string> = {}, input?: string): string[] {
  const dir = tempDir();
  const record = path.join(dir, 'imports.txt');
  const result = spawnSync(process.execPath, ['--import', RECORDER, KACTL_BIN, ...args], {
    env: cleanEnv(dir, { KACTL_RECORD_IMPORTS: record, ...env }),
    encoding: 'utf8',
    input,
  });
  expect(result.status, result.stderr).toBe(status);
  return sourcesOf(fs.readFileSync(record, 'utf8').split('\n').filter(Boolean));
}

/** As loadedModules, in the config folder `dir`, without blocking this process (which may serve the request). */
async function loadedModulesIn(dir: string, args: string[], env: Record<string, string>, input = ''): Promise<string[]> {
  const record = path.join(dir, `imports-${args.join('-')}.txt`);
  fs.rmSync(record, { force: true });
  const child = spawn(process.execPath, ['--import', RECORDER, KACTL_BIN, ...args], { env: cleanEnv(dir, { KACTL_RECORD_IMPORTS: record, ...env }), stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(status, `${args.join(' ')}: ${stderr}`).toBe(0);
  return sourcesOf(fs.readFileSync(record, 'utf8').split('\n').filter(Boolean));
}

function heavyIn(urls: string[]): string[] {
  return HEAVY_PACKAGES.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`)));
}

describe('cold start', () => {
  it('records imports (the recorder works: a command that needs a heavy module shows it)', () => {
    // jq-wasm is required from node_modules (src/io/jq.ts), yaml is bundled: the chunk holding it
    // maps back to its sources.
    const env = { KACTL_SELLER_KEY: 'a'.repeat(32) };
    expect(heavyIn(loadedModules(['licenses', 'list', '--jq', '.[].key', '--base-url', 'http://127.0.0.1:9'], 4, env))).toContain('jq-wasm');
    const flows = path.join(tempDir(), 'flows.yaml');
    fs.writeFileSync(flows, 'flows: [');
    expect(heavyIn(loadedModules(['test', flows], 2))).toContain('yaml');
  });

  // The config file and the replay memory are written with fs (src/util/atomic-file.ts), and a
  // request goes through node:http: neither the conf package (ajv, semver…, a thousand file
  // system calls) nor undici (its WebAssembly HTTP parser) is on these paths any more.
  it('kactl client check and kactl licenses list, answered, load no undici (its WebAssembly parser) and no file from node_modules', async () => {
    const sb = await startTestSandbox();
    const dir = tempDir();
    const env = {
      KACTL_BASE_URL: sb.baseUrl,
      KACTL_APP_NAME: sb.info.app.name,
      KACTL_OWNERID: sb.info.app.ownerid,
      KACTL_PUBLIC_KEY: sb.info.publicKey,
      KACTL_SELLER_KEY: sb.info.sellerKey,
    };
    const { key } = (await sb.seller('add', { expiry: '30', level: '1', format: 'json' })).json as { key: string };
    await loadedModulesIn(dir, ['client', 'init'], env);
    await loadedModulesIn(dir, ['client', 'register', '--username', 'cold', '--password-stdin', '--key', key], env, 'cold-start-pw\n');
    const check = await loadedModulesIn(dir, ['client', 'check'], env);
    // The signed answer was checked and remembered for the replay check (the write on this path).
    expect(fs.readFileSync(path.join(dir, 'answers', 'default.json'), 'utf8')).toMatch(/"answers":\["[0-9a-f]{32}"/);
    // node:crypto, which the signature check needs, loads while the request is in flight, not before it leaves.
    expect(check).toContain('socket connect');
    // Nor the second pack (scripts/pack-chunks.mjs): what it runs is all in the first.
    expect(check.filter((url) => url.endsWith('/dist/bundle/pack-more.cjs'))).toEqual([]);
    // A client command builds the program without the seller catalog (the lists help topic reads it).
    expect(check.filter((url) => url.includes('/src/api/seller-catalog/'))).toEqual([]);
    expect(check.indexOf('node:crypto')).toBeGreaterThan(check.indexOf('socket connect'));
    const list = await loadedModulesIn(dir, ['licenses', 'list'], env);
    for (const loaded of [check, list]) {
      expect(heavyIn(loaded)).not.toContain('undici');
      // Nor any file from node_modules (better-sqlite3, jq-wasm: the packages not in the bundle).
      expect(loaded.filter((url) => url.startsWith('file:') && url.includes('/node_modules/'))).toEqual([]);
    }
  });

  it('jq (WebAssembly) loads only for --jq', () => {
    const env = { KACTL_SELLER_KEY: 'a'.repeat(32) };
    expect(heavyIn(loadedModules(['licenses', 'list', '--status', 'unused', '--json', 'key', '--base-url', 'http://127.0.0.1:9'], 4, env))).not.toContain('jq-wasm');
    expect(heavyIn(loadedModules(['licenses', 'list', '--jq', '.[].key', '--base-url', 'http://127.0.0.1:9'], 4, env))).toContain('jq-wasm');
  });

  it('kactl --version loads none of the heavy modules', () => {
    expect(heavyIn(loadedModules(['--version']))).toEqual([]);
  });

  // Piped, bin/kactl.js prints the help written at build; FORCE_COLOR (set, even to 0) makes
  // the bundle answer, as it does on a terminal. Both ways must stay light.
  const SLOW_HELP = { FORCE_COLOR: '0' };

  it('kactl --help loads none of the heavy modules', () => {
    expect(heavyIn(loadedModules(['--help']))).toEqual([]);
    expect(heavyIn(loadedModules(['--help'], 0, SLOW_HELP))).toEqual([]);
  });

  it('help for groups and verbs loads none of the heavy modules', () => {
    for (const args of [['help', 'sandbox'], ['licenses', 'create', '--help'], ['client', '--help'], ['client', '2fa', 'enable', '--help'], ['demo', '--help']]) {
      expect(heavyIn(loadedModules(args)), args.join(' ')).toEqual([]);
      expect(heavyIn(loadedModules(args, 0, SLOW_HELP)), args.join(' ')).toEqual([]);
    }
  });

  it('a command that reads no input does not create process.stdin, one that does still reads it', () => {
    const env = { KACTL_SELLER_KEY: 'a'.repeat(32) };
    expect(loadedModules(['licenses', 'list', '--base-url', 'http://127.0.0.1:9'], 4, env)).not.toContain('process.stdin');
    const added = ['profile', 'add', 'p', '--force', '--base-url', 'http://127.0.0.1:9', '--app-name', 'A', '--ownerid', 'abcdefghij', '--seller-key-stdin'];
    expect(loadedModules(added, 0, {}, 'b'.repeat(32))).toContain('process.stdin');
  });

  it('kactl --version loads no command group at all', () => {
    const groups = /\/src\/commands\/(profile|client|seller|sandbox|demo)\b/;
    expect(loadedModules(['--version']).filter((url) => groups.test(url))).toEqual([]);
    // The recorder sees group modules when they do load (the bundle answers `help` on a terminal).
    expect(loadedModules(['help', 'profile'], 0, SLOW_HELP).filter((url) => groups.test(url))).not.toEqual([]);
  });
});
