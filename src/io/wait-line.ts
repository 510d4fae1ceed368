/**
 * Telling people about waits without flooding stderr: on a terminal one line that is redrawn in
 * place (and cleared when the wait ends); without one, a single note for the first wait only, so
 * a paced job's log says once that it is paced instead of once per call.
 */
import type { IOStreams } from './streams.js';

const CLEAR_LINE = '\r\u001b[2K';

type WaitIO = Pick<IOStreams, 'err' | 'isStderrTTY'>;

/**
 * Returns `show(text)`: on a terminal it draws `text` in place and returns the function that
 * clears it; otherwise it passes the first text to `note` and ignores the rest.
 */
export function createWaitLine(io: WaitIO, note: (text: string) => void): (text: string) => (() => void) | undefined {
  let noted = false;
  return (text) => {
    if (!io.isStderrTTY) {
      if (!noted) note(text);
      noted = true;
      return undefined;
    }
    io.err(`${CLEAR_LINE}${text}`);
    return () => io.err(CLEAR_LINE);
  };
}

/**
 * Waits `ms` on a terminal with `label(msLeft)` redrawn each second, then clears the line.
 * `sleep` rejects when `signal` aborts (Ctrl-C); the line is cleared then too.
 */
export async function countdown(
  io: WaitIO,
  ms: number,
  label: (msLeft: number) => string,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let left = ms;
  try {
    while (left > 0) {
      io.err(`${CLEAR_LINE}${label(Math.ceil(left / 1000) * 1000)}`);
      const step = Math.min(1000, left);
      await sleep(step, signal);
      left -= step;
    }
  } finally {
    io.err(CLEAR_LINE);
  }
}
