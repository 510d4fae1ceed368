/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (docs/contracts.md §14): piped or
 * in CI it draws nothing, so logs stay clean. Data printed meanwhile to the same terminal goes
 * through `above`, which lifts the bar off the line, prints, and draws it again below.
 */
import type { IOStreams } from './streams.js';

export interface Progress {
  /** `done` of the total are finished. */
  update(done: number): void;
  /** Runs `write` (which prints something) with the bar out of the way. */
  above(write: () => void): void;
  /** Removes the bar for good. */
  stop(): void;
  /** True when a bar is drawn (a terminal, and not disabled). */
  readonly drawing: boolean;
  /** A short text after the counter (`pacing 0.6 s`), redrawn in place; undefined removes it. */
  status(text: string | undefined): void;
}

const CLEAR_LINE = '\r\u001b[2K';

/** The bar's text for `done` of `total` in `width` columns: `label [████░░░░] 300/1000`. */
export function progressLine(label: string, done: number, total: number, width: number): string {
  // Padded to the total's width, so the bar keeps its length as the count grows.
  const counter = ` ${String(done).padStart(String(total).length)}/${total}`;
  const room = Math.max(0, Math.min(40, width - label.length - counter.length - 4));
  const filled = total > 0 ? Math.round((room * Math.min(done, total)) / total) : 0;
  return `${label} [${'█'.repeat(filled)}${'░'.repeat(room - filled)}]${counter}`;
}

export function createProgress(io: IOStreams, options: { total: number; label: string; enabled?: boolean }): Progress {
  if (!io.isStderrTTY || options.enabled === false) {
    return { update: () => undefined, above: (write) => write(), stop: () => undefined, drawing: false, status: () => undefined };
  }
  let done = 0;
  let suffix = '';
  let shown = false;
  let stopped = false;
  const draw = (): void => {
    if (stopped) return;
    io.err(`${CLEAR_LINE}${progressLine(options.label, done, options.total, io.columns - suffix.length)}${suffix}`);
    shown = true;
  };
  const lift = (): void => {
    if (shown) io.err(CLEAR_LINE);
    shown = false;
  };
  draw();
  return {
    update(value) {
      done = value;
      draw();
    },
    above(write) {
      lift();
      write();
      draw();
    },
    stop() {
      lift();
      stopped = true;
    },
    drawing: true,
    status(text) {
      suffix = text === undefined ? '' : `  ${text}`;
      draw();
    },
  };
}
