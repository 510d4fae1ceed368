/**
 * The check that dist/ was built from the tree as it is, for the tests that run it: `npm run
 * build` records a hash of every input (scripts/source-stamp.mjs), and requireFreshBuild()
 * compares. test/helpers/run-kactl.ts calls it for every test that spawns the CLI; a test that
 * loads dist/ some other way calls it itself. vitest.config.ts keeps the unit and server tests
 * that import this (or a helper that does) out of the fast loop, which never builds.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuildReason } from '../../scripts/source-stamp.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let reason: string | undefined | null = null;

/** Throws, telling the maintainer to run `npm run build`, unless dist/ was built from the tree as it is. */
export function requireFreshBuild(): void {
  if (reason === null) reason = staleBuildReason(ROOT);
  if (reason !== undefined) throw new Error(`${reason}. Run \`npm run build\` first.`);
}
