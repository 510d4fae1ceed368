/**
 * `kactl/sandbox`: the sandbox as a library, for test suites and programs. `startSandbox()`
 * runs the real server (src/server/start.ts) in this process on 127.0.0.1, a free port and an
 * in-memory store by default, seeds it, and hands back what a test needs: typed clients bound
 * to it, its outbox, clock and request log (through its admin routes, src/api/sandbox-admin.ts,
 * as the CLI reaches them), snapshots, a reset to the seeded state, and a `close()` after which
 * nothing of it keeps the process alive. Many can run in one process; none writes to the console
 * unless a logger is given.
 */
import { startSandboxWith } from './run.js';
import type { Sandbox, StartSandboxOptions } from './types.js';

/** Starts a sandbox; see StartSandboxOptions. */
export function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  return startSandboxWith(options, {});
}
