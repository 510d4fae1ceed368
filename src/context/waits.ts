/**
 * The Context's display of waits: a pacing wait as one line redrawn in place on a terminal (one
 * note per run without one), a rate-limit retry counting down on a terminal, and how many tries
 * a call gets (KACTL_RETRIES).
 */
import type { EnvRecord } from '../env.js';
import { readEnv } from '../env.js';
import { UsageError } from '../errors.js';
import type { IOStreams } from '../io/streams.js';
import type { Output } from '../io/output.js';
import type { RetryNotice } from '../api/retry.js';
import { countdown, createWaitLine } from '../io/wait-line.js';

export function pacingNote(ms: number): string {
  return `Pacing: waiting ${(ms / 1000).toFixed(1)} s to stay within the seller API budget.`;
}

/** What the API callers take from the waits: the countdown on a terminal, and how many tries a call gets. */
export type RetryDisplay = { countdown?: (notice: RetryNotice, signal?: AbortSignal) => Promise<void>; maxAttempts?: number };

/** The most retries KACTL_RETRIES may ask for: each may wait up to a minute (src/api/retry.ts). */
const MAX_RETRIES = 5;

/** KACTL_RETRIES as tries in all (retries + 1); undefined when unset. A value that is not 0 to 5 is refused, naming the variable. */
export function maxAttemptsFrom(env: EnvRecord): number | undefined {
  const raw = readEnv(env, 'KACTL_RETRIES');
  if (raw === undefined) return undefined;
  const retries = /^\d{1,2}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(retries <= MAX_RETRIES)) throw new UsageError(`KACTL_RETRIES: give a whole number of retries from 0 to ${MAX_RETRIES}, not "${raw}".`);
  return retries + 1;
}

export class Waits {
  private waitLine: ((text: string) => (() => void) | undefined) | undefined;

  constructor(
    private readonly terminal: { readonly io: IOStreams; readonly output: Output },
    private readonly env: EnvRecord = {},
  ) {}

  /** A wait (pacing) as one line redrawn in place on a terminal, or one note per run without one; returns what clears the line. */
  show(text: string): (() => void) | undefined {
    this.waitLine ??= createWaitLine(this.terminal.io, (line) => this.terminal.output.note(`${line} Later waits are not reported.`));
    return this.waitLine(text);
  }

  /**
   * How the callers retry: as many tries as KACTL_RETRIES allows, and on a terminal rate-limit
   * waits counting down in place (without one the retry note says it once).
   */
  async retryDisplay(): Promise<RetryDisplay> {
    const maxAttempts = maxAttemptsFrom(this.env);
    const tries = maxAttempts === undefined ? {} : { maxAttempts };
    const io = this.terminal.io;
    if (!io.isStderrTTY) return tries;
    const { defaultSleep, retryNoticeLine } = await import('../api/retry.js');
    return { ...tries, countdown: (notice, signal) => countdown(io, notice.delayMs, (left) => retryNoticeLine({ ...notice, delayMs: left }), defaultSleep, signal) };
  }
}
