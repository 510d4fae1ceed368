/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (docs/contracts.md §14): piped or
 * in CI it draws nothing, so logs stay clean. Data printed meanwhile to the same terminal goes
 * through `above`, which lifts the bar off the line, prints, and draws it again below.
 *
 * A long job may ask for more (`eta`): the time left after the counter, and without a terminal
 * one line every `lineEveryMs` (count and time left) so a CI log shows it is moving.
 */
import { humanDuration } from './format.js';
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
  /** A short text after the counter (`pacing 42s`), redrawn in place; undefined removes it. */
  status(text: string | undefined): void;
}

/** How often a pacing wait beside the bar is redrawn: each second of the countdown shows. */
const PACING_TICK_MS = 250;

/**
 * The `onWait` of a bulk job's SellerApi (licenses create, apply, restore): a pacing wait is
 * shown beside the bar as `pacing 42s`, counting down to the call, so a minute's wait does not
 * look like a frozen bar; without a bar, `elsewhere` says it (the Context's single wait line).
 * Returns what ends the wait's text.
 */
export function pacingWaits(progress: Progress, now: () => number, elsewhere: (ms: number) => void | (() => void)): (ms: number) => void | (() => void) {
  return (ms) => {
    if (!progress.drawing) return elsewhere(ms);
    const end = now() + ms;
    const show = (): void => progress.status(`pacing ${humanDuration(Math.max(1, Math.ceil((end - now()) / 1000)))}`);
    show();
    const timer = setInterval(show, PACING_TICK_MS);
    // The wait itself keeps the process alive; the redraw must not outlive it.
    timer.unref();
    return () => {
      clearInterval(timer);
      progress.status(undefined);
    };
  };
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

/** `about 3m 20s`, or `under a second`: a wait as people say it. */
export function timeLeftText(ms: number): string {
  return ms < 1000 ? 'under a second' : `about ${humanDuration(ms / 1000)}`;
}

export interface ProgressOptions {
  total: number;
  label: string;
  enabled?: boolean;
  /** Show the time left, from the pace so far (and `estimateMs` before there is one). */
  eta?: { now: () => number; estimateMs?: number; lineEveryMs?: number; line?: (text: string) => void };
}

/** The time left after `done` of `total`, at the pace since `startedAt` (or the first estimate). */
function timeLeft(done: number, total: number, elapsedMs: number, estimateMs: number | undefined): number | undefined {
  if (done >= total) return 0;
  if (done === 0) return estimateMs === undefined ? undefined : Math.max(0, estimateMs - elapsedMs);
  return (elapsedMs / done) * (total - done);
}

/** Without a terminal: a line now and then, when asked for. */
function progressLines(options: ProgressOptions): Progress {
  const eta = options.eta;
  const every = eta?.lineEveryMs;
  const started = eta?.now() ?? 0;
  let last = started;
  return {
    update(done) {
      if (eta?.line === undefined || every === undefined || done >= options.total) return;
      const now = eta.now();
      if (now - last < every) return;
      last = now;
      const left = timeLeft(done, options.total, now - started, eta.estimateMs);
      eta.line(`${options.label}: ${done} of ${options.total} done${left === undefined ? '' : `, ${timeLeftText(left)} left`}.`);
    },
    above: (write) => write(),
    stop: () => undefined,
    drawing: false,
    status: () => undefined,
  };
}

export function createProgress(io: IOStreams, options: ProgressOptions): Progress {
  if (options.enabled === false) return { update: () => undefined, above: (write) => write(), stop: () => undefined, drawing: false, status: () => undefined };
  if (!io.isStderrTTY) return progressLines(options);
  let done = 0;
  let suffix = '';
  let shown = false;
  let stopped = false;
  const started = options.eta?.now() ?? 0;
  const etaText = (): string => {
    if (options.eta === undefined) return '';
    const left = timeLeft(done, options.total, options.eta.now() - started, options.eta.estimateMs);
    return left === undefined || left === 0 ? '' : `  ${humanDuration(Math.max(1, left / 1000))} left`;
  };
  const draw = (): void => {
    if (stopped) return;
    const after = `${etaText()}${suffix}`;
    io.err(`${CLEAR_LINE}${progressLine(options.label, done, options.total, io.columns - after.length)}${after}`);
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
