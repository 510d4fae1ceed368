/**
 * Which unit and server test files need something the others do without, for vitest.config.ts:
 * - a file that runs the build (dist/) goes to the `built` project, which only `npm test` (it
 *   builds first) runs: the fast loop (`npm run test:fast`) never builds. A file runs the build
 *   when it imports a helper that spawns or loads it; those helpers check first that dist/ was
 *   built from the tree (test/helpers/built.ts).
 * - a file that mocks a module (`vi.mock`) goes to the `isolated` project: the unit and server
 *   projects share one module graph per worker, where a module some earlier file imported is
 *   already loaded unmocked.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The helpers that reach dist/: the stamp check itself and everything that spawns bin/kactl.js.
 * A helper that imports one of these belongs in the list (test/unit/test-loop.test.ts checks).
 */
export const BUILD_HELPERS: readonly string[] = ['built', 'run-kactl', 'e2e', 'pty', 'web-loader'];

/** An import of a build helper, by a test file or another helper. */
export const IMPORTS_A_BUILD_HELPER = new RegExp(`^import\\s[^;]*from '(?:\\.\\.?/)+(?:helpers/)?(?:${BUILD_HELPERS.join('|')})\\.js';`, 'm');

function testFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts')).map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/** The test files under `dirs` (relative to `root`) that import a build helper, as paths relative to `root`. */
export function testsThatRunTheBuild(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => testFiles(root, dir)).filter((file) => IMPORTS_A_BUILD_HELPER.test(fs.readFileSync(path.join(root, file), 'utf8')));
}

/** A module mock, which takes effect only in a module graph of the file's own. */
const MOCKS_A_MODULE = /^\s*vi\.(?:mock|doMock)\(/m;

/** The test files under `dirs` that mock a module and run no build, as paths relative to `root`. */
export function testsThatMockModules(root: string, dirs: readonly string[]): string[] {
  const built = new Set(testsThatRunTheBuild(root, dirs));
  return dirs.flatMap((dir) => testFiles(root, dir)).filter((file) => !built.has(file) && MOCKS_A_MODULE.test(fs.readFileSync(path.join(root, file), 'utf8')));
}
