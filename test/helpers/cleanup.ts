/**
 * What the shared helpers undo after each test file (temporary folders, sandboxes, mounts,
 * spawned sandboxes) or after each test (the strict fake servers' checks). A helper registers
 * its cleanup here once, when it is imported; test/setup/cleanup-hooks.ts, which vitest runs
 * before every test file, registers the hooks that run them. Newest first, as vitest runs its own
 * after-hooks: a helper's cleanup runs before those of the helpers it imports (a sandbox closes
 * before its data folder goes).
 *
 * Why not an afterAll in each helper: the unit and server projects run each worker's files in
 * one module graph (vitest.config.ts, `isolate: false`), so a helper is imported once per worker,
 * and a hook it registered when imported would run after the first file only.
 */

type Cleanup = () => void | Promise<void>;

const afterFile: Cleanup[] = [];
const afterTest: Cleanup[] = [];

/** Runs `cleanup` after every test file (registered once, at the helper's import). */
export function cleanUpAfterEachFile(cleanup: Cleanup): void {
  afterFile.push(cleanup);
}

/** Runs `cleanup` after every test; a cleanup that throws fails the test, after the others ran. */
export function cleanUpAfterEachTest(cleanup: Cleanup): void {
  afterTest.push(cleanup);
}

async function runAll(cleanups: readonly Cleanup[]): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of [...cleanups].reverse()) {
    try {
      await cleanup();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, errors.map((error) => (error instanceof Error ? error.message : String(error))).join('; '));
}

export function runFileCleanups(): Promise<void> {
  return runAll(afterFile);
}

export function runTestCleanups(): Promise<void> {
  return runAll(afterTest);
}
