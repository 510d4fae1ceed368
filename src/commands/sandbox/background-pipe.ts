/**
 * The pipe between `kactl sandbox start --detach` and the background server it runs (file
 * descriptor READY_FD in the server). Two messages, one JSON line each:
 * - down, first thing: the secrets of the command line. `--seller-key K` is left out of the
 *   background server's argv (detach.ts), which any local user can read for the server's whole
 *   life (`/proc/<pid>/cmdline`, `ps`); the server reads the key from here before it starts.
 * - up, once serving: the ready report the waiting kactl prints.
 *
 * Why the pipe and not the environment: `/proc/<pid>/environ` is owner-only on Linux, but the
 * environment is inherited by anything the process runs, kept for its whole life, and readable by
 * every process of the same user; the pipe leaves the secret in the server's memory only.
 */
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { KactlError } from '../../errors.js';
import type { ReadyReport } from './ready.js';

/** The file descriptor of the pipe in the background server. */
export const READY_FD = 3;

/** The secret options of `sandbox start`: flag → option key. They travel on the pipe only. */
export const SECRET_FLAGS: ReadonlyMap<string, 'sellerKey'> = new Map([['--seller-key', 'sellerKey']]);

export type PipedSecrets = Partial<Record<'sellerKey', string>>;

/** Ample for a few keys; a longer first line is not ours. */
const MAX_SECRETS_BYTES = 64 * 1024;

/** Parent: the secrets, as the first (and only) line down the pipe. */
export function sendSecrets(pipe: Writable, secrets: PipedSecrets): void {
  pipe.write(`${JSON.stringify(secrets)}\n`);
}

/** Background server: the secrets line, read before anything else. */
export async function receiveSecrets(): Promise<PipedSecrets> {
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.alloc(4096);
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(READY_FD, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      throw new KactlError('--background-log is for the server `kactl sandbox start --detach` runs: start it with --detach.', 'USAGE');
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
    size += read;
    if (buffer.subarray(0, read).includes(0x0a) || size > MAX_SECRETS_BYTES) break;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const newline = text.indexOf('\n');
  let parsed: unknown;
  try {
    parsed = newline < 0 ? undefined : JSON.parse(text.slice(0, newline));
  } catch {
    parsed = undefined;
  }
  if (!isSecrets(parsed)) throw new KactlError('The kactl that ran this background sandbox went away before handing over its settings.', 'FAILURE');
  return parsed;
}

function isSecrets(value: unknown): value is PipedSecrets {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const known = new Set<string>(SECRET_FLAGS.values());
  return Object.entries(value).every(([key, secret]) => known.has(key) && typeof secret === 'string');
}

/** Background server: the ready report, for the `--detach` process waiting on the pipe. */
export function handOver(report: ReadyReport): void {
  try {
    fs.writeSync(READY_FD, `${JSON.stringify(report)}\n`);
    fs.closeSync(READY_FD);
  } catch {
    // The waiting process has gone (Ctrl-C): serve anyway, as asked.
  }
}
