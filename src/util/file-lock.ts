/**
 * A cross-process lock made of a directory: `mkdir` either creates it or fails with EEXIST,
 * atomically, on every local file system. Used around read-modify-write of the config file and
 * of the seller pacing state, so that two kactl processes never lose each other's changes.
 *
 * A holder that died leaves the directory behind; a lock older than `staleMs` is taken over.
 */
import fs from 'node:fs';

export interface FileLockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock untouched for this long is considered abandoned (default 10 s). */
  staleMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_STALE_MS = 10_000;
const RETRY_MIN_MS = 5;
const RETRY_MAX_MS = 25;

export class LockTimeoutError extends Error {
  constructor(lockPath: string, timeoutMs: number) {
    super(`Could not lock ${lockPath} within ${timeoutMs} ms; another kactl process holds it.`);
    this.name = 'LockTimeoutError';
  }
}

function tryAcquire(lockPath: string, staleMs: number): boolean {
  try {
    fs.mkdirSync(lockPath, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    const age = Date.now() - fs.statSync(lockPath).mtimeMs;
    if (age > staleMs) {
      // Rename first so that two processes breaking the same stale lock can't both win.
      const grave = `${lockPath}.stale-${process.pid}-${Date.now()}`;
      fs.renameSync(lockPath, grave);
      fs.rmSync(grave, { recursive: true, force: true });
    }
  } catch {
    // The holder released it (or another process broke it) between our calls: just retry.
  }
  return false;
}

function release(lockPath: string): void {
  // The lock is an empty folder: rmdir, not a recursive rm (which walks it first: the larger
  // part of a seller call's pacing on a one-request command).
  try {
    fs.rmdirSync(lockPath);
  } catch (error) {
    // Broken as stale by another process meanwhile, or something was put in it: never left behind.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') fs.rmSync(lockPath, { recursive: true, force: true });
  }
}

function retryDelay(): number {
  return RETRY_MIN_MS + Math.floor(Math.random() * (RETRY_MAX_MS - RETRY_MIN_MS));
}

/** What Atomics.wait sleeps on, made on the first wait (none at load: most locks are free at once). */
let sleeper: Int32Array | undefined;

/** Run `fn` while holding the lock; blocks the thread while waiting (for synchronous callers: the config store). */
export function withFileLockSync<T>(lockPath: string, fn: () => T, options: FileLockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  while (!tryAcquire(lockPath, staleMs)) {
    if (Date.now() > deadline) throw new LockTimeoutError(lockPath, timeoutMs);
    sleeper ??= new Int32Array(new SharedArrayBuffer(4));
    Atomics.wait(sleeper, 0, 0, retryDelay());
  }
  try {
    return fn();
  } finally {
    release(lockPath);
  }
}

/** Run `fn` while holding the lock; waits without blocking the event loop. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T> | T, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  while (!tryAcquire(lockPath, staleMs)) {
    if (Date.now() > deadline) throw new LockTimeoutError(lockPath, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, retryDelay()));
  }
  try {
    return await fn();
  } finally {
    release(lockPath);
  }
}
