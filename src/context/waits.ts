/**
 * The Context's display of waits: a pacing wait as one line redrawn in place on a terminal (one
 * note per run without one), and a rate-limit retry counting down on a terminal.
 */
import type { IOStreams } from '../io/streams.js';
import type { Output } from '../io/output.js';
import type { RetryNotice } from '../api/retry.js';
import { countdown, createWaitLine } from '../io/wait-line.js';

export function pacingNote(ms: number): string {
  return `Pacing: waiting ${(ms / 1000).toFixed(1)} s to stay within the seller API budget.`;
}

export type RateLimitCountdown = { countdown?: (notice: RetryNotice, signal?: AbortSignal) => Promise<void> };

export class Waits {
  private waitLine: ((text: string) => (() => void) | undefined) | undefined;

  constructor(private readonly terminal: { readonly io: IOStreams; readonly output: Output }) {}

  /** A wait (pacing) as one line redrawn in place on a terminal, or one note per run without one; returns what clears the line. */
  show(text: string): (() => void) | undefined {
    this.waitLine ??= createWaitLine(this.terminal.io, (line) => this.terminal.output.note(`${line} Later waits are not reported.`));
    return this.waitLine(text);
  }

  /** On a terminal, rate-limit waits count down in place; without one the retry note says it once. */
  async rateLimitCountdown(): Promise<RateLimitCountdown> {
    const io = this.terminal.io;
    if (!io.isStderrTTY) return {};
    const { defaultSleep, retryNoticeLine } = await import('../api/retry.js');
    return { countdown: (notice, signal) => countdown(io, notice.delayMs, (left) => retryNoticeLine({ ...notice, delayMs: left }), defaultSleep, signal) };
  }
}
