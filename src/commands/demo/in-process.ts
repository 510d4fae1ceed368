/**
 * Runs one kactl command line in this process, through the real `main()` (handed down by the
 * shell: commands/registration.ts), with captured streams: what the demo shows is exactly what
 * the command prints. Output keeps its order across stdout and stderr (each write is recorded as
 * it happens). `kactl test` hands it to the flows runner (flows/run-kactl.ts), which sits below
 * the commands and cannot import them.
 */
import { PassThrough, Writable } from 'node:stream';
import type { InProcessOptions, InProcessResult, RunKactl } from '../../flows/run-kactl.js';
import type { MainFn } from '../registration.js';

export type { InProcessOptions, InProcessResult };

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

/** A runner of command lines through `main`, streams captured. */
export function inProcessRunner(main: MainFn): RunKactl {
  return (argv, options) => runInProcess(main, argv, options);
}

async function runInProcess(main: MainFn, argv: readonly string[], options: InProcessOptions): Promise<InProcessResult> {
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
