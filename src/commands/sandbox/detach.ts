/**
 * `kactl sandbox start --detach`: run the same command again as a background server (its own
 * session, so the terminal's Ctrl-C and hang-up do not reach it; output to a log file in the
 * data folder), wait until it reports ready on an extra pipe, print what it reports, and return.
 * If the server fails to start, its error (from the log) is shown and its exit code returned.
 * Secret options (`--seller-key`) are not on its command line: they go down the same pipe
 * (background-pipe.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { InterruptedError, KactlError, ExitCode } from '../../errors.js';
import { announceReady, isReadyReport, type ReadyReport } from './ready.js';
import { READY_FD, SECRET_FLAGS, sendSecrets, type PipedSecrets } from './background-pipe.js';
import { registryDir } from './registry.js';
import { selfCommand } from './self-process.js';
import type { StartOptions } from './start-options.js';
import { makeDir } from '../../util/make-dir.js';

/** Opening a large store and seeding it takes well under this; beyond it something is wrong. */
const READY_TIMEOUT_MS = 60_000;

export async function sandboxDetach(ctx: Context, command: Command, options: StartOptions): Promise<void> {
  const secrets: PipedSecrets = {};
  for (const key of SECRET_FLAGS.values()) if (options[key] !== undefined) secrets[key] = options[key];
  const args = forwardedArgs(command, secrets);
  const dir = registryDir(ctx.dataDir);
  makeDir(dir);
  const stamp = new Date(ctx.now()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const logFile = path.join(dir, `sandbox-${stamp}-${randomBytes(3).toString('hex')}.log`);
  const logFd = fs.openSync(logFile, 'a', 0o600);
  const self = selfCommand();
  let child: ChildProcess;
  try {
    child = spawn(self.file, [...self.args, ...args, '--background-log', logFile], {
      detached: true,
      stdio: ['ignore', logFd, logFd, 'pipe'],
      env: { ...ctx.env },
    });
  } finally {
    fs.closeSync(logFd);
  }
  const pipe = child.stdio[READY_FD] as Writable | null;
  // A server that exits at once (a bad flag) closes the pipe under the write: its exit says why.
  pipe?.on('error', () => undefined);
  if (pipe) sendSecrets(pipe, secrets);
  const report = await waitForReady(ctx, child);
  if (report === undefined) {
    // The server stopped before it was ready: its error is what it wrote to the log, less its own
    // timestamped lines ("sandbox listening on …" before a seed failed), unless --verbose.
    const logged = fs.readFileSync(logFile, 'utf8');
    const said = ctx.globals.verbose ? logged : withoutServerLines(logged);
    fs.rmSync(logFile, { force: true });
    ctx.io.err(said.endsWith('\n') || said === '' ? said : `${said}\n`);
    ctx.exitCode = child.exitCode && child.exitCode > 0 ? child.exitCode : ExitCode.failure;
    if (said.trim() === '') throw new KactlError('The background sandbox stopped before it was ready, without a word.', 'FAILURE');
    return;
  }
  child.unref();
  await announceReady(ctx, report, { detached: true });
}

/** A line the background server logs (`2024-05-01T10:00:00.000Z sandbox listening on …`), not the error kactl printed. */
const SERVER_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /;

/** The log of a server that failed to start, without the server's own timestamped lines. */
export function withoutServerLines(log: string): string {
  return log
    .split('\n')
    .filter((line) => !SERVER_LINE.test(line))
    .join('\n');
}

/**
 * The command line as typed, minus `--detach` and the secret options: every other option
 * (including ones this file does not know about) reaches the background server unchanged.
 */
function forwardedArgs(command: Command, secrets: PipedSecrets): string[] {
  const chain: Command[] = [];
  for (let cmd: Command | null = command; cmd; cmd = cmd.parent) chain.push(cmd);
  const raw = (chain.at(-1) as unknown as { rawArgs?: unknown }).rawArgs;
  if (!Array.isArray(raw)) throw new KactlError('Cannot tell the command line to run in the background.', 'FAILURE');
  const args = withoutSecrets(
    (raw as string[]).filter((arg) => arg !== '--detach'),
    chain.flatMap((cmd) => cmd.options),
  );
  // Belt and braces: whatever the parse, no secret value goes on the background command line.
  const values = Object.values(secrets).filter((value) => value !== '');
  if (args.some((arg) => values.some((value) => arg.includes(value)))) {
    throw new KactlError('The seller key also appears elsewhere on the command line; give it only as --seller-key so it can be kept off the background server\'s command line.', 'USAGE');
  }
  return args;
}

/**
 * `args` without the secret options and their values, read the way commander reads them: a
 * flag that takes a value takes the next word whatever it looks like (`--app-name --seller-key`
 * names an app), an optional value only a word that is not a flag, `--flag=value` is one word,
 * and after `--` nothing is an option.
 */
export function withoutSecrets(args: readonly string[], options: readonly Option[]): string[] {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const option of options) {
    for (const flag of [option.long, option.short]) {
      if (flag === undefined) continue;
      if (option.required) required.add(flag);
      else if (option.optional) optional.add(flag);
    }
  }
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      kept.push(...args.slice(i));
      break;
    }
    const flag = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const secret = SECRET_FLAGS.has(flag);
    const takesNext = flag === arg && (required.has(flag) || (optional.has(flag) && i + 1 < args.length && !args[i + 1]!.startsWith('-')));
    if (!secret) kept.push(arg);
    if (takesNext && i + 1 < args.length) {
      i += 1;
      if (!secret) kept.push(args[i]!);
    }
  }
  return kept;
}

function waitForReady(ctx: Context, child: ChildProcess): Promise<ReadyReport | undefined> {
  const pipe = child.stdio[READY_FD] as NodeJS.ReadableStream | null | undefined;
  return new Promise((resolve, reject) => {
    let text = '';
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = (): void => {
      child.kill('SIGTERM');
      finish(() => reject(new InterruptedError()));
    };
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish(() => reject(new KactlError(`The background sandbox was not ready within ${READY_TIMEOUT_MS / 1000} s; it was stopped.`, 'FAILURE')));
    }, READY_TIMEOUT_MS);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    pipe?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline < 0) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text.slice(0, newline));
      } catch {
        parsed = undefined;
      }
      (pipe as unknown as { destroy(): void }).destroy();
      finish(() => (isReadyReport(parsed) ? resolve(parsed) : reject(new KactlError('The background sandbox sent a ready report kactl cannot read.', 'FAILURE'))));
    });
    child.once('exit', () => finish(() => resolve(undefined)));
    child.once('error', (error) => finish(() => reject(error)));
  });
}
