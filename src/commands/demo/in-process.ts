/**
 * Runs one kactl command line in this process, through the real `main()`, with captured
 * streams: what the demo shows is exactly what the command prints. Output keeps its order
 * across stdout and stderr (each write is recorded as it happens).
 */
import { PassThrough, Writable } from 'node:stream';
import type { EnvRecord } from '../../env.js';
import { main } from '../../cli.js';

export interface InProcessOptions {
  env: EnvRecord;
  /** Fed to the command's stdin (e.g. for `--password-stdin`); stdin is closed after it. */
  input?: string;
  /** Present the captured stdout and stderr as a terminal (tables, ✓ marks). */
  terminal: boolean;
  columns: number;
  signal: AbortSignal;
  now: () => number;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as written. */
  combined: string;
}

type CaptureStream = Writable & { isTTY?: boolean; columns?: number };

function capture(into: string[], combined: string[], options: InProcessOptions): CaptureStream {
  const stream: CaptureStream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      into.push(text);
      combined.push(text);
      done();
    },
  });
  stream.isTTY = options.terminal;
  stream.columns = options.columns;
  return stream;
}

export async function runInProcess(argv: readonly string[], options: InProcessOptions): Promise<InProcessResult> {
  const out: string[] = [];
  const err: string[] = [];
  const combined: string[] = [];
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const code = await main(argv, {
    stdin,
    stdout: capture(out, combined, options),
    stderr: capture(err, combined, options),
    env: options.env,
    signal: options.signal,
    now: options.now,
  });
  return { code, stdout: out.join(''), stderr: err.join(''), combined: combined.join('') };
}
