/**
 * Where the library's lines go when a program wants them: a pacing wait, a retry, a request
 * seen by the sandbox. Nothing is written anywhere unless a logger is given; `console` fits.
 */
export interface Logger {
  /** What happens as it happens (a sandbox's request lines, its start). */
  info(message: string): void;
  /** Something worth a look that did not stop the work (a retry, a pacing wait, an unchecked signature). */
  warn(message: string): void;
  /** Each request and answer, redacted (the CLI's `--verbose` lines). Optional. */
  debug?(message: string): void;
}

/** A line sink for `level` of an optional logger: a no-op without one. */
export function logLine(logger: Logger | undefined, level: 'info' | 'warn' | 'debug'): (message: string) => void {
  if (logger?.[level] === undefined) return () => undefined;
  return (message) => logger[level]?.(message);
}
