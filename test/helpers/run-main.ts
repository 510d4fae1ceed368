/**
 * Run kactl's main() in-process with buffers for streams and a temp config folder: fast tests
 * of parsing, output and config. Terminal-ness of each stream is chosen per call.
 */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli.js';

export interface RunMainOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  columns?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(isTTY: boolean, columns: number): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  stream.isTTY = isTTY;
  stream.columns = columns;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runMain(argv: readonly string[], options: RunMainOptions = {}): Promise<RunResult> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = options.stdinTTY ?? false;
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else if (!stdin.isTTY) stdin.end();
  const out = sink(options.stdoutTTY ?? false, options.columns ?? 120);
  const err = sink(options.stderrTTY ?? false, options.columns ?? 120);
  const code = await main(argv, {
    stdin,
    stdout: out.stream,
    stderr: err.stream,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...options.env },
    signal: new AbortController().signal,
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.text(), stderr: err.text() };
}
