/**
 * A one-line spinner on stderr for waits (the magic-link approval): drawn only when stderr is
 * a terminal, so logs and pipes stay clean. Its text is a function, read again on every frame,
 * so a countdown in it stays current without the caller redrawing.
 */
import type { IOStreams } from './streams.js';

export interface Spinner {
  /** Removes the line; `finalLine` (if any) is printed in its place. Safe to call twice. */
  stop(finalLine?: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 100;
const CLEAR_LINE = '\r\u001b[2K';

/** `905` → `15:05`, `3725` → `1:02:05`: a countdown people read at a glance. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export function createSpinner(io: IOStreams, text: () => string): Spinner {
  if (!io.isStderrTTY) return { stop: (finalLine) => finalLine !== undefined && io.err(`${finalLine}\n`) };
  let frame = 0;
  let stopped = false;
  const draw = (): void => {
    // Cut to the terminal's width: a wrapped line could not be cleared with one \r.
    const line = `${FRAMES[frame % FRAMES.length]} ${text()}`.slice(0, Math.max(1, io.columns - 1));
    io.err(`${CLEAR_LINE}${line}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  return {
    stop(finalLine) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      io.err(CLEAR_LINE);
      if (finalLine !== undefined) io.err(`${finalLine}\n`);
    },
  };
}
