/**
 * The fast loop and the stale-build check (vitest.config.ts, scripts/source-stamp.mjs):
 * - every unit or server test that reaches dist/ is routed out of the fast loop, which never
 *   builds, and goes through the helpers that check the build first; one that mocks a module
 *   gets a module graph of its own;
 * - the check compares contents, so it tells a stale build from a fresh one whatever the files'
 *   times say: a source edited after the build is stale even with an older time, and a source
 *   put back as it was (a `git checkout`) is fresh again even with a newer one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAMP_FILE, sourceStamp, staleBuildReason } from '../../scripts/source-stamp.mjs';
import { tempDir } from '../helpers/temp-dir.js';
import { BUILD_HELPERS, IMPORTS_A_BUILD_HELPER, testsThatMockModules, testsThatRunTheBuild } from '../helpers/test-kinds.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * What the code of a test reaching the build mentions: built files, the launcher's path as the
 * helpers export it, a fixture or bench script that loads dist/. (A heuristic: a test may name
 * `bin/kactl.js` as text, in command lines it parses, without running it.)
 */
const REACHES_THE_BUILD = /dist\/|KACTL_BIN|sandbox-child|bench\//;

/** A test file's code without its comments (block comments and whole-line `//` ones), which may name such files freely. */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

describe('the fast loop', () => {
  it('leaves out every unit and server test that reaches dist/', () => {
    const routed = new Set(testsThatRunTheBuild(ROOT, ['test/unit', 'test/server']));
    const reaching = ['test/unit', 'test/server']
      .flatMap((dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((file) => path.posix.join(dir, file.split(path.sep).join('/'))))
      .filter((file) => file.endsWith('.test.ts') && file !== 'test/unit/test-loop.test.ts')
      .filter((file) => REACHES_THE_BUILD.test(codeOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))));
    expect(reaching.length).toBeGreaterThan(0);
    expect(reaching.filter((file) => !routed.has(file))).toEqual([]);
  });

  it('lists every helper that imports a build helper as one itself', () => {
    const dir = path.join(ROOT, 'test/helpers');
    const helpers = fs.readdirSync(dir).filter((file) => file.endsWith('.ts'));
    const importing = helpers.filter((file) => IMPORTS_A_BUILD_HELPER.test(fs.readFileSync(path.join(dir, file), 'utf8'))).map((file) => file.replace(/\.ts$/, ''));
    expect(importing.length).toBeGreaterThan(0);
    expect(importing.filter((name) => !BUILD_HELPERS.includes(name))).toEqual([]);
  });

  it('leaves the undoing to the cleanup registry: no shared helper registers a hook of its own', () => {
    // Where files share a module graph, a hook a helper registers when imported runs for the
    // worker's first file only (test/helpers/cleanup.ts).
    const helpers = fs
      .readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .map((file) => path.posix.join('test', file.split(path.sep).join('/')))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('test/setup/') && !file.startsWith('test/fixtures/'));
    expect(helpers.length).toBeGreaterThan(0);
    const hooking = helpers.filter((file) => /^(?:afterAll|afterEach|beforeAll|beforeEach)\(/m.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(hooking).toEqual([]);
  });

  it('routes a file by the helper it imports', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'test/unit/cli'), { recursive: true });
    fs.writeFileSync(path.join(root, 'test/unit/cli/spawns.test.ts'), "import { runKactl } from '../../helpers/run-kactl.js';\n");
    fs.writeFileSync(path.join(root, 'test/unit/plain.test.ts'), "import { runMain } from '../helpers/run-main.js';\n");
    expect(testsThatRunTheBuild(root, ['test/unit'])).toEqual(['test/unit/cli/spawns.test.ts']);
  });

  it('gives a file that mocks a module a module graph of its own', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'test/server'), { recursive: true });
    fs.writeFileSync(path.join(root, 'test/server/mocks.test.ts'), "import { vi } from 'vitest';\n\nvi.mock('node:crypto', async () => ({}));\n");
    fs.writeFileSync(path.join(root, 'test/server/says-so.test.ts'), "// It never calls vi.mock('node:crypto').\nexport {};\n");
    expect(testsThatMockModules(root, ['test/server'])).toEqual(['test/server/mocks.test.ts']);
  });
});

describe('the stale-build check', () => {
  /** A tree with one source, built (stamped) as it is now. */
  function builtTree(): string {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'src/api'), { recursive: true });
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
    fs.writeFileSync(path.join(root, 'src/api/one.ts'), 'export const one = 1;\n');
    fs.writeFileSync(path.join(root, STAMP_FILE), JSON.stringify(sourceStamp(root)));
    return root;
  }
  const past = new Date(Date.UTC(2001, 0, 1));
  const future = new Date(Date.now() + 86_400_000);

  it('passes on the tree the build was made from', () => {
    expect(staleBuildReason(builtTree())).toBeUndefined();
  });

  it('names a source changed since the build, even when its time is older than the build', () => {
    const root = builtTree();
    fs.writeFileSync(path.join(root, 'src/api/one.ts'), 'export const one = 2;\n');
    fs.utimesSync(path.join(root, 'src/api/one.ts'), past, past);
    expect(staleBuildReason(root)).toBe('dist/ was built from other sources than the tree has: src/api/one.ts changed');
  });

  it('passes again once the source is back as it was built, even when its time is newer (git checkout)', () => {
    const root = builtTree();
    fs.writeFileSync(path.join(root, 'src/api/one.ts'), 'export const one = 2;\n');
    fs.writeFileSync(path.join(root, 'src/api/one.ts'), 'export const one = 1;\n');
    fs.utimesSync(path.join(root, 'src/api/one.ts'), future, future);
    expect(staleBuildReason(root)).toBeUndefined();
  });

  it('names new and removed sources, a few of them', () => {
    const root = builtTree();
    fs.rmSync(path.join(root, 'src/api/one.ts'));
    for (const name of ['a', 'b', 'c', 'd']) fs.writeFileSync(path.join(root, `src/api/${name}.ts`), '');
    expect(staleBuildReason(root)).toBe('dist/ was built from other sources than the tree has: src/api/a.ts is new, src/api/b.ts is new, src/api/c.ts is new and 2 more');
  });

  it('says there is no complete build when the stamp is missing', () => {
    const root = builtTree();
    fs.rmSync(path.join(root, STAMP_FILE));
    expect(staleBuildReason(root)).toBe(`dist/ has no build stamp (${STAMP_FILE}): there is no complete build`);
  });
});
