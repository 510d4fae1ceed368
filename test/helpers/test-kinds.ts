/**
 * Which test files run the build (dist/), for vitest.config.ts: the fast loop (`npm run
 * test:fast`, the unit and server projects) never builds, so the unit and server files that run
 * dist/ go to a project of their own that only `npm test` (which builds first) runs. A file runs
 * the build when it imports a helper that spawns or loads it; those helpers check first that
 * dist/ was built from the tree (test/helpers/built.ts).
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
