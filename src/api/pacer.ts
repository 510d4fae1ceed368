/**
 * Client-side pacing of seller calls (docs/contracts.md §17: pace proactively so the server's penalty is
 * never triggered). The server allows 120 calls a minute per seller key (docs/protocol/seller-api.md §1.5);
 * a CI script may run many kactl processes in a row with the same key, so the record of recent
 * calls lives in a small JSON file per key, shared by every process, updated under a file lock.
 *
 * Sliding window: a call may go when fewer than `limit` calls were made in the last window.
 * Any fixed window the server counts in is one of those windows, so the server's count can
 * never go over. The window is widened by a small margin because calls reach the server a
 * little after we record them, and not all equally late.
 *
 * The file is named from a SHA-256 of the key, never the key itself. Without a state folder
 * the record is kept in memory, shared by the Pacers of this process. So it is when the folder
 * cannot be written (read-only, full): the record only saves the server's budget, so a run that
 * cannot keep it goes on with what it could read, in memory, and says so once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-file.js';
import { withFileLock } from '../util/file-lock.js';
import { makeDir } from '../util/make-dir.js';
import { sha256Hex } from '../util/sha256.js';
import { defaultSleep } from './retry.js';
import type { Sleep } from './retry.js';

/** The seller API's budget per key (docs/protocol/seller-api.md §1.3 row 2). */
export const DEFAULT_SELLER_CALLS_PER_MINUTE = 120;
export const PACING_WINDOW_MS = 60_000;
/** Added to the window: network delay varies, and the server counts arrivals. */
export const PACING_MARGIN_MS = 1_000;

export interface PacerOptions {
  /** The seller key whose budget this is (only its hash is kept). */
  key: string;
  /** Calls allowed per window; 0 turns pacing off. */
  limit: number;
  windowMs?: number;
  marginMs?: number;
  /** Folder for the shared state file; in-memory when absent. */
  stateDir?: string;
  /** ms since the epoch (shared across processes, so a wall clock). */
  now?: () => number;
  sleep?: Sleep;
  /**
   * Told before each wait, so the CLI can say "pacing: waiting 2.3 s …"; may return a function
   * called when the wait is over (to clear a line drawn in place).
   */
  onWait?: (ms: number) => void | (() => void);
  /** Told once when the state folder cannot be written and pacing goes on in memory. */
  onStateUnwritable?: (error: unknown, stateDir: string) => void;
}

interface PaceState {
  version: 1;
  /** Times (ms since the epoch) of the calls made in the current window, oldest first. */
  calls: number[];
}

const memoryState = new Map<string, number[]>();

/** A stable, non-reversible name for the key. */
export function keyFingerprint(key: string): string {
  return sha256Hex(key).slice(0, 32);
}

/** Where the state for `key` lives inside `stateDir`. */
export function paceStateFile(stateDir: string, key: string): string {
  return path.join(stateDir, `seller-pace-${keyFingerprint(key)}.json`);
}

/** Paces calls made with one seller key. */
export class Pacer {
  private readonly limit: number;
  private readonly spanMs: number;
  private readonly fingerprint: string;
  /** The shared state file; undefined once pacing is in memory. */
  private file: string | undefined;
  private readonly stateDir: string | undefined;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly onWait: PacerOptions['onWait'];
  private readonly onStateUnwritable: PacerOptions['onStateUnwritable'];

  constructor(options: PacerOptions) {
    this.limit = Math.max(0, Math.floor(options.limit));
    this.spanMs = (options.windowMs ?? PACING_WINDOW_MS) + (options.marginMs ?? PACING_MARGIN_MS);
    this.fingerprint = keyFingerprint(options.key);
    this.stateDir = options.stateDir;
    this.file = options.stateDir === undefined ? undefined : paceStateFile(options.stateDir, options.key);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.onWait = options.onWait;
    this.onStateUnwritable = options.onStateUnwritable;
  }

  /**
   * Records a call when it fits in the budget now; false, with nothing recorded and no wait, when
   * it does not (shell completion asks once or not at all).
   */
  async tryAcquire(): Promise<boolean> {
    if (this.limit === 0) return true;
    return (this.file === undefined ? this.takeInMemory() : await this.takeInFileOrMemory(this.file)) === 0;
  }

  /** Waits until a call fits in the budget, then records it. Returns the total time waited (ms). */
  async acquire(signal?: AbortSignal): Promise<number> {
    if (this.limit === 0) return 0;
    let waited = 0;
    for (;;) {
      const waitMs = this.file === undefined ? this.takeInMemory() : await this.takeInFileOrMemory(this.file);
      if (waitMs === 0) return waited;
      const done = this.onWait?.(waitMs);
      try {
        await this.sleep(waitMs, signal);
      } finally {
        if (typeof done === 'function') done();
      }
      waited += waitMs;
    }
  }

  /**
   * How long `calls` more calls take from now, made one after another, each `perCallMs` long
   * once it may go: the sliding window played forward from the calls on record (those of other
   * kactl processes with this key included). What bulk jobs announce before they start.
   */
  estimateMs(calls: number, perCallMs: number): number {
    if (this.limit === 0) return calls * perCallMs;
    const now = this.now();
    const recorded = this.file === undefined ? memoryState.get(this.fingerprint) ?? [] : readState(this.file).calls;
    const window = recorded.filter((time) => now - time < this.spanMs).sort((a, b) => a - b);
    let at = now;
    for (let i = 0; i < calls; i++) {
      const blocker = window.length >= this.limit ? window[window.length - this.limit]! : undefined;
      if (blocker !== undefined) at = Math.max(at, blocker + this.spanMs);
      window.push(at);
      at += perCallMs;
    }
    return at - now;
  }

  /** Calls allowed per window (0: not paced). */
  get callsPerWindow(): number {
    return this.limit;
  }

  /** 0 when the call was recorded, else how long to wait before asking again. */
  private take(calls: number[]): { calls: number[]; waitMs: number } {
    const now = this.now();
    // Calls from "the future" (a clock moved back) still count until they age out.
    const recent = calls.filter((time) => now - time < this.spanMs).sort((a, b) => a - b);
    if (recent.length < this.limit) return { calls: [...recent, now], waitMs: 0 };
    const oldestThatBlocks = recent[recent.length - this.limit] ?? now;
    return { calls: recent, waitMs: Math.max(1, oldestThatBlocks + this.spanMs - now) };
  }

  private takeInMemory(): number {
    const { calls, waitMs } = this.take(memoryState.get(this.fingerprint) ?? []);
    memoryState.set(this.fingerprint, calls);
    return waitMs;
  }

  private async takeInFileOrMemory(file: string): Promise<number> {
    try {
      return await this.takeInFile(file);
    } catch (error) {
      // Only the file system's refusals; a lock another process holds too long is still an error.
      if (typeof (error as NodeJS.ErrnoException).code !== 'string' || typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      this.file = undefined;
      // The calls other processes recorded still count, as far as they can be read.
      memoryState.set(this.fingerprint, [...(memoryState.get(this.fingerprint) ?? []), ...readState(file).calls]);
      this.onStateUnwritable?.(error, this.stateDir as string);
      return this.takeInMemory();
    }
  }

  private async takeInFile(file: string): Promise<number> {
    makeDir(this.stateDir as string);
    return withFileLock(`${file}.lock`, () => {
      const { calls, waitMs } = this.take(readState(file).calls);
      if (waitMs === 0) writeState(file, { version: 1, calls });
      return waitMs;
    });
  }
}

function readState(file: string): PaceState {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PaceState>;
    const calls = Array.isArray(parsed.calls) ? parsed.calls.filter((time): time is number => typeof time === 'number' && Number.isFinite(time)) : [];
    return { version: 1, calls };
  } catch {
    // Missing or damaged: start afresh. At worst one window is paced as if empty.
    return { version: 1, calls: [] };
  }
}

function writeState(file: string, state: PaceState): void {
  // Written whole, then renamed, so a reader never sees half a file. Not flushed to disk: the
  // record only saves the server's budget, and a crash costs at most one window paced as empty.
  writeFileAtomicSync(file, JSON.stringify(state), { flush: false });
}
