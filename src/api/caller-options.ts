/** What the client and the seller callers both take: the transport, retries, clock and abort. */
import type { RetryNotice, Sleep } from './retry.js';
import type { Transport } from './transport.js';

export interface CallerOptions {
  transport: Transport;
  /** A line for stderr (warnings, retry notes). */
  warn: (line: string) => void;
  /** ms since the epoch. */
  now?: () => number;
  sleep?: Sleep;
  /** For tests: jitter source for retry backoff. */
  random?: () => number;
  /** The window a "Try again in a minute" refers to (default the hosted 60 s; tests shorten it). */
  rateWindowMs?: number;
  /** Waits out a rate limit visibly (a countdown on a terminal); default a `warn` line and a sleep. */
  countdown?: (notice: RetryNotice, signal?: AbortSignal) => Promise<void>;
  /** Tries of a call in all, the first included (default 3: src/api/retry.ts); 1 never retries. */
  maxAttempts?: number;
  /** Aborts every call (Ctrl-C); a call's own `signal` is added to it. */
  signal?: AbortSignal;
}
