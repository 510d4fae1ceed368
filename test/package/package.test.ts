/**
 * The package as a user installs it. `npm pack` makes the tarball from the current build (run
 * `npm run build` first; `npm test` does), and then, outside the checkout:
 *
 * 1. a project installs it with only its runtime dependencies and there imports each entry point
 *    from an ES module and from a CommonJS file, type-checks TypeScript consumers against the
 *    shipped declarations (ES module and CommonJS, no `any` leaking), runs every example of
 *    docs/library.md (vitest, jest, node:test, an audit, a login program, a bulk seller script), and runs
 *    `npx kactl --version` and `npx kactl demo`;
 * 2. a fresh global prefix gets `npm install -g` of the tarball, and the README's first session
 *    and `kactl test` of the shipped examples/flows.yaml run with only that prefix's `kactl`.
 *
 * What it needs: npm, the packages of package-lock.json in npm's cache (an `npm ci` of this
 * checkout put them there; `--prefer-offline` reads them from it, and only a cache miss reaches
 * the registry), and this checkout's node_modules for the test runners and tsc. better-sqlite3 is
 * installed without its build script and gets this checkout's compiled addon (same version, same
 * Node), so no run compiles it from source (5–6 minutes on two cores).
 *
 * It is the slow test (a minute or two): KACTL_SKIP_PACKAGE_TEST=1 leaves it out of the everyday
 * loop; `npm test` and CI run it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';
import { killRegisteredSandboxes } from '../helpers/leftover-sandboxes.js';
import { runnableBlocks, shellScript } from '../helpers/markdown-blocks.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const skip = process.env.KACTL_SKIP_PACKAGE_TEST === '1';
const ENTRIES = ['kactl', 'kactl/client', 'kactl/seller', 'kactl/sandbox'] as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function ok(result: Run, what: string): Run {
  expect(result.code, `${what} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** The ```lang file=NAME blocks of docs/library.md: NAME → code. */
function docExamples(): Map<string, string> {
  const text = fs.readFileSync(path.join(root, 'docs/library.md'), 'utf8');
  return new Map([...text.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)].map((match) => [match[1]!, match[2]!]));
}

/** better-sqlite3 in `folder` (installed without scripts) gets this checkout's compiled addon. */
function giveAddon(folder: string): void {
  const ours = path.join(root, 'node_modules', 'better-sqlite3');
  const theirs = path.join(folder, 'node_modules', 'better-sqlite3');
  const version = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  expect(version(theirs), 'the tarball resolved another better-sqlite3 than this checkout has').toBe(version(ours));
  fs.cpSync(path.join(ours, 'build', 'Release', 'better_sqlite3.node'), path.join(theirs, 'build', 'Release', 'better_sqlite3.node'));
}

const npmEnv = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true' };

describe.skipIf(skip)('the package, as a user installs it', () => {
  let tarball = '';
  let project = '';
  let sandbox: Sandbox;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    expect(fs.existsSync(path.join(root, 'dist', 'lib', 'sandbox.js')), 'dist/ is missing: run `npm run build`').toBe(true);
    const packs = tempDir('kactl-pack-');
    // --ignore-scripts: `prepack` would build again; the build is what the test is about.
    const packed = ok(await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs], { cwd: root, env: npmEnv }), 'npm pack');
    const [info] = JSON.parse(packed.stdout) as { filename: string; entryCount: number; size: number; unpackedSize: number; files: { path: string }[] }[];
    tarball = path.join(packs, info!.filename);
    console.log(`kactl tarball: ${info!.entryCount} files, ${(info!.size / 1024).toFixed(0)} kB packed, ${(info!.unpackedSize / 1024).toFixed(0)} kB unpacked`);
    const files = info!.files.map((file) => file.path);
    // Only what runs or what the README points to.
    expect(files.filter((file) => /\.tsbuildinfo$|meta\.json$|^dist\/(api|server|commands|state|config|io)\/|^test\/|^src\//.test(file))).toEqual([]);
    for (const needed of ['LICENSE', 'README.md', 'CHANGELOG.md', 'examples/kactl.yaml', 'examples/flows.yaml', 'docs/library.md', 'bin/kactl.js', 'dist/lib/sandbox.d.ts']) expect(files).toContain(needed);
    // The count grows with the code (a chunk per module of the library and the CLI's bundle, a
    // declaration per module the entry points reach); a second build tree would double it (1004 once).
    expect(info!.entryCount).toBeLessThan(700);

    project = tempDir('kactl-consumer-');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    ok(await run('npm', ['install', '--omit=dev', '--ignore-scripts', tarball], { cwd: project, env: npmEnv, timeoutMs: 300_000 }), 'npm install of the tarball');
    giveAddon(project);
    // The test runners and their types come from this checkout.
    for (const name of ['vitest', 'jest']) fs.symlinkSync(path.join(root, 'node_modules', name), path.join(project, 'node_modules', name), 'dir');

    sandbox = await startSandbox({
      seed: { users: [{ username: 'alice', password: 'alice-pass-0001', subscription: 'default', expiry: '30d' }] },
    });
  }, 400_000);

  afterAll(async () => {
    await sandbox?.close();
    killRegisteredSandboxes(dataDirs);
  });

  it('`npm publish --dry-run` is clean', async () => {
    const result = ok(await run('npm', ['publish', '--dry-run', '--ignore-scripts', tarball], { cwd: root, env: npmEnv }), 'npm publish --dry-run');
    // npm's own complaints about the package (a field it corrected, a file it dropped); not being
    // logged in to the registry is the machine's, not the package's.
    const complaints = result.stderr.split('\n').filter((line) => /^npm (warn|error|ERR!)/.test(line) && !/requires you to be logged in/.test(line));
    expect(complaints).toEqual([]);
    expect(result.stdout).toMatch(/\+ kactl@/);
  });

  it('has no script of its own for an install to allow: a tarball needs no build (npm 11 allowScripts)', async () => {
    const shipped = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'kactl', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const event of ['preinstall', 'install', 'postinstall', 'prepare']) expect(shipped.scripts ?? {}, event).not.toHaveProperty(event);
    // The README's global install, with npm refusing any script it does not allow: only better-sqlite3's.
    const prefix = tempDir('kactl-strict-prefix-');
    fs.mkdirSync(path.join(prefix, 'lib'));
    const strict = await run('npm', ['install', '-g', '--dry-run', '--strict-allow-scripts', '--allow-scripts=better-sqlite3', '--prefix', prefix, tarball], { cwd: prefix, env: npmEnv, timeoutMs: 300_000 });
    expect(strict.code, strict.stderr).toBe(0);
    expect(strict.stderr).not.toContain('not covered by allowScripts');
  }, 300_000);

  it('installs only the runtime dependencies', () => {
    const installed = fs.readdirSync(path.join(project, 'node_modules'));
    for (const dev of ['typescript', 'esbuild', 'eslint', 'node-pty', 'puppeteer-core']) expect(installed).not.toContain(dev);
    expect(installed).toContain('better-sqlite3');
  });

  it('imports every entry point from an ES module and a CommonJS file, and both reach the same objects', async () => {
    const body = (load: (entry: string) => string) => `
const entries = {};
${ENTRIES.map((entry) => `entries[${JSON.stringify(entry)}] = ${load(entry)};`).join('\n')}
const names = Object.fromEntries(Object.entries(entries).map(([entry, module]) => [entry, Object.keys(module).sort()]));
const { startSandbox } = entries['kactl/sandbox'];
const sb = await startSandbox({ seed: { users: [{ username: 'alice', password: 'alice-pass-0001', subscription: 'default', expiry: '30d' }] } });
const client = sb.client();
await client.init();
const login = await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
await sb.close();
const same = entries['kactl'].AuthError === entries['kactl/client'].AuthError;
console.log(JSON.stringify({ names, user: login.info.username, same }));
`;
    fs.writeFileSync(path.join(project, 'imports.mjs'), `${body((entry) => `await import(${JSON.stringify(entry)})`)}`);
    fs.writeFileSync(path.join(project, 'requires.cjs'), `(async () => {${body((entry) => `require(${JSON.stringify(entry)})`)}})();`);
    const esm = JSON.parse(ok(await run(process.execPath, ['imports.mjs'], { cwd: project }), 'the ES module consumer').stdout) as { names: Record<string, string[]>; user: string; same: boolean };
    const cjs = JSON.parse(ok(await run(process.execPath, ['requires.cjs'], { cwd: project }), 'the CommonJS consumer').stdout) as typeof esm;
    expect(esm.user).toBe('alice');
    expect(cjs.user).toBe('alice');
    expect(esm.same && cjs.same).toBe(true);
    expect(esm.names).toEqual(cjs.names);
    expect(esm.names['kactl/sandbox']).toContain('startSandbox');
    expect(esm.names['kactl/client']).toContain('createClient');
    expect(esm.names['kactl/seller']).toContain('createSeller');
    expect(esm.names['kactl']).toContain('KactlError');
    // An object from require() is an instance of a class from import().
    const mixed = `import { createRequire } from 'node:module';
const { UsageError } = createRequire(import.meta.url)('kactl');
const { startSandbox } = await import('kactl/sandbox');
const error = await startSandbox({ port: -1 }).catch((caught) => caught);
console.log(error instanceof UsageError, error.code);`;
    fs.writeFileSync(path.join(project, 'mixed.mjs'), mixed);
    expect(ok(await run(process.execPath, ['mixed.mjs'], { cwd: project }), 'import and require together').stdout.trim()).toBe('true USAGE');
  });

  it('type-checks TypeScript consumers against the shipped declarations, with no `any` leaking', async () => {
    const checks = `
type IsAny<T> = 0 extends 1 & T ? true : false;
/** The names of T's members typed \`any\`; never when there is none. */
type AnyMembers<T> = { [K in keyof T]-?: IsAny<T[K]> extends true ? K : never }[keyof T];
type Assert<T extends true> = T;
type NoAny<T> = [IsAny<T>, AnyMembers<T>] extends [false, never] ? true : false;
`;
    const consumer = (imports: string) => `${imports}
${checks}
export type Checked = [
  Assert<NoAny<KactlClient>>,
  Assert<NoAny<ClientOptions>>,
  Assert<NoAny<LoginAnswer>>,
  Assert<NoAny<LoginAnswer['info']>>,
  Assert<NoAny<LoginAnswer['info']['subscriptions'][number]>>,
  Assert<NoAny<Awaited<ReturnType<KactlClient['init']>>>>,
  Assert<NoAny<KactlSeller>>,
  Assert<NoAny<SellerAnswer<'fetchallkeys'>>>,
  Assert<NoAny<SellerAnswer<'fetchallkeys'>['keys'][number]>>,
  Assert<NoAny<SellerParams<'add'>>>,
  Assert<NoAny<Sandbox>>,
  Assert<NoAny<StartSandboxOptions>>,
  Assert<NoAny<Awaited<ReturnType<Sandbox['outbox']['last']>>>>,
  Assert<NoAny<KactlError>>,
  Assert<NoAny<AuthError>>,
];

export async function main(): Promise<string> {
  const sb = await startSandbox({ seed: { subscriptions: [{ name: 'pro', level: 2 }] } });
  const seller = sb.seller();
  const made = await seller.call('add', { expiry: 30, level: 2, amount: 2 });
  const keys: readonly string[] = made.keys ?? [];
  const client = sb.client();
  const init: InitAnswer = await client.init();
  const login = await client.license({ key: keys[0]!, hwid: 'HWID-0000000000000000001' });
  const level: string | undefined = login.info.subscriptions[0]?.level;
  // @ts-expect-error add needs an expiry
  await seller.call('add', { amount: 1 });
  // @ts-expect-error no such seller type
  await seller.call('nosuchtype');
  try {
    await client.check();
  } catch (error) {
    if (error instanceof AuthError && error.reason === 'session-ended') return 'over';
    if (error instanceof KactlError) return error.code;
  }
  await sb.close();
  return \`\${init.sessionid} \${level ?? ''}\`;
}
`;
    const imports = (from: (entry: string) => string) => `import { startSandbox, type Sandbox, type StartSandboxOptions } from '${from('kactl/sandbox')}';
import type { ClientOptions, InitAnswer, KactlClient, LoginAnswer } from '${from('kactl/client')}';
import type { KactlSeller, SellerAnswer, SellerParams } from '${from('kactl/seller')}';
import { AuthError, KactlError } from '${from('kactl')}';`;
    fs.writeFileSync(path.join(project, 'consumer.mts'), consumer(imports((entry) => entry)));
    fs.writeFileSync(path.join(project, 'consumer.cts'), consumer(imports((entry) => entry)).replace(/^import \{ startSandbox.*$/m, "import { startSandbox, type Sandbox, type StartSandboxOptions } from 'kactl/sandbox';"));
    const examples = docExamples();
    for (const [file, code] of examples) if (file.endsWith('.ts')) fs.writeFileSync(path.join(project, file), code);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'esnext.disposable'],
          strict: true,
          noEmit: true,
          // Our declarations are checked too.
          skipLibCheck: false,
          typeRoots: [path.join(root, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.mts', 'consumer.cts', ...[...examples.keys()].filter((file) => file.endsWith('.ts'))],
      }),
    );
    ok(await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project }), 'tsc --noEmit of the consumers');
    // The declarations themselves say `any` nowhere.
    const declarations = fs.readdirSync(path.join(project, 'node_modules', 'kactl', 'dist', 'lib'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.d\.m?ts$/.test(file));
    for (const file of declarations) {
      const text = fs.readFileSync(path.join(project, 'node_modules', 'kactl', 'dist', 'lib', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      expect(text, file).not.toMatch(/\bany\b/);
    }
  });

  it('runs the vitest, jest and node:test examples of docs/library.md', async () => {
    const examples = docExamples();
    for (const [file, code] of examples) fs.writeFileSync(path.join(project, file), code);
    const vitest = ok(await run(process.execPath, [path.join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project, 'licenses.vitest.test.mjs', 'email-code.vitest.test.ts', 'audit.vitest.test.mjs'], { cwd: project, env: { NO_COLOR: '1' }, timeoutMs: 180_000 }), 'the vitest examples');
    expect(vitest.stdout).toMatch(/Tests\s+4 passed/);
    const jest = ok(await run(process.execPath, [path.join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--rootDir', project, '--ci', 'users.jest.test.cjs'], { cwd: project, env: { NO_COLOR: '1' }, timeoutMs: 180_000 }), 'the jest example');
    expect(jest.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(jest.stderr).not.toMatch(/did not exit|open handle/i);
    const nodeTest = ok(await run(process.execPath, ['--test', '--test-reporter=tap', 'variables.node.test.mjs'], { cwd: project, timeoutMs: 120_000 }), 'the node:test example');
    expect(nodeTest.stdout).toMatch(/# pass 2/);
    expect(nodeTest.stdout).toMatch(/# fail 0/);
  });

  it('runs the login program and the bulk seller script of docs/library.md', async () => {
    const env = {
      KEYAUTH_URL: sandbox.baseUrl,
      KEYAUTH_APP: sandbox.app.name,
      KEYAUTH_OWNERID: sandbox.app.ownerid,
      KEYAUTH_PUBLIC_KEY: sandbox.publicKey,
      KEYAUTH_SELLER_KEY: sandbox.sellerKey,
      APP_USER: 'alice',
      APP_PASS: 'alice-pass-0001',
    };
    const login = ok(await run(process.execPath, ['login.mjs'], { cwd: project, env }), 'login.mjs');
    expect(login.stdout).toMatch(/^alice: default until \d{4}-\d\d-\d\dT/);
    // The signature is checked: under another key the same program refuses the answer.
    const forged = await run(process.execPath, ['login.mjs'], { cwd: project, env: { ...env, KEYAUTH_PUBLIC_KEY: 'ab'.repeat(32) } });
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(/^login failed \(SIGNATURE\)/);

    const bulk = ok(await run(process.execPath, ['bulk.mjs'], { cwd: project, env }), 'bulk.mjs');
    expect(bulk.stdout).toMatch(/made 250 keys/);
    const written = fs.readFileSync(path.join(project, 'keys.txt'), 'utf8').trim().split('\n');
    expect(written).toHaveLength(250);
    const { keys } = await sandbox.seller().call('fetchallkeys');
    expect(keys.filter((row) => row.note === 'spring batch').map((row) => row.key).sort()).toEqual([...written].sort());
  });

  it('runs `npx kactl --version` and `npx kactl demo` from the project', async () => {
    const env = { KACTL_CONFIG_DIR: tempDir('kactl-npx-config-'), NO_COLOR: '1' };
    const version = ok(await run('npx', ['--no-install', 'kactl', '--version'], { cwd: project, env: { ...npmEnv, ...env } }), 'npx kactl --version');
    expect(version.stdout.trim()).toBe((JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);
    const demo = ok(await run('npx', ['--no-install', 'kactl', 'demo'], { cwd: project, env: { ...npmEnv, ...env }, timeoutMs: 180_000 }), 'npx kactl demo');
    expect(demo.stdout).toMatch(/\$ kactl client login/);
  });

  it('installs globally into a fresh prefix; the README\'s first session and kactl test of the shipped flows run outside the checkout', async () => {
    const home = tempDir('kactl-global-');
    const prefix = path.join(home, 'prefix');
    ok(await run('npm', ['install', '-g', '--ignore-scripts', '--prefix', prefix, tarball], { cwd: home, env: npmEnv, timeoutMs: 300_000 }), 'npm install -g');
    const installed = path.join(prefix, 'lib', 'node_modules', 'kactl');
    giveAddon(installed);
    const [config, data, work] = ['config', 'data', 'work'].map((name) => path.join(home, name));
    fs.mkdirSync(config!);
    fs.mkdirSync(work!);
    fs.mkdirSync(data!, { mode: 0o700 });
    dataDirs.push(data!);
    const readme = fs.readFileSync(path.join(installed, 'README.md'), 'utf8');
    const section = /^## A first session\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
    const blocks = runnableBlocks(section);
    expect(blocks.length).toBeGreaterThan(0);
    const script = `${shellScript(blocks, 'README.md')}
kactl test "$(npm root -g)/kactl/examples/flows.yaml"
kactl sandbox stop --all`;
    const env = {
      // Only the prefix's kactl; node and npm from where they are.
      PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      NO_COLOR: '1',
      KACTL_CONFIG_DIR: config,
      KACTL_DATA_DIR: data,
      npm_config_prefix: prefix,
    };
    expect(execFileSync('bash', ['-c', 'command -v kactl'], { env, encoding: 'utf8' }).trim()).toBe(path.join(prefix, 'bin', 'kactl'));
    const result = await run('bash', ['-c', script], { cwd: work!, env, timeoutMs: 240_000 });
    expect(result.code, `the first session or the flows failed (the last "::: README.md block" line names the block):\n${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/theme.*dark|dark/);
    expect(result.stdout + result.stderr).toMatch(/flows? passed|passed/i);
  });
});
