/**
 * `kactl sandbox start --detach`: run the same command again as a background server (its own
 * session, so the terminal's Ctrl-C and hang-up do not reach it; output to a log file in the
 * data folder), wait until it reports ready on an extra pipe, print what it reports, and return.
 * If the server fails to start, its error (from the log) is shown and its exit code returned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { InterruptedError, KactlError, ExitCode } from '../../errors.js';
import { announceReady, isReadyReport, type ReadyReport } from './ready.js';
import { registryDir } from './registry.js';
import { selfCommand } from './self-process.js';
import { READY_FD, type StartOptions } from './start.js';
import { makeDir } from '../../util/make-dir.js';

/** Opening a large store and seeding it takes well under this; beyond it something is wrong. */
const READY_TIMEOUT_MS = 60_000;

export async function sandboxDetach(ctx: Context, command: Command, _options: StartOptions): Promise<void> {
  const args = forwardedArgs(command);
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
  const report = await waitForReady(ctx, child);
  if (report === undefined) {
    // The server stopped before it was ready: its error is what it wrote to the log.
    const said = fs.readFileSync(logFile, 'utf8');
    fs.rmSync(logFile, { force: true });
    ctx.io.err(said.endsWith('\n') || said === '' ? said : `${said}\n`);
    ctx.exitCode = child.exitCode && child.exitCode > 0 ? child.exitCode : ExitCode.failure;
    if (said.trim() === '') throw new KactlError('The background sandbox stopped before it was ready, without a word.', ExitCode.failure);
    return;
  }
  child.unref();
  await announceReady(ctx, report, { detached: true });
}

/**
 * The command line as typed, minus `--detach`: every option (including ones this file does not
 * know about) reaches the background server unchanged.
 */
function forwardedArgs(command: Command): string[] {
  let root: Command = command;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: unknown }).rawArgs;
  if (!Array.isArray(raw)) throw new KactlError('Cannot tell the command line to run in the background.', ExitCode.failure);
  return (raw as string[]).filter((arg) => arg !== '--detach');
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
      finish(() => reject(new KactlError(`The background sandbox was not ready within ${READY_TIMEOUT_MS / 1000} s; it was stopped.`, ExitCode.failure)));
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
      finish(() => (isReadyReport(parsed) ? resolve(parsed) : reject(new KactlError('The background sandbox sent a ready report kactl cannot read.', ExitCode.failure))));
    });
    child.once('exit', () => finish(() => resolve(undefined)));
    child.once('error', (error) => finish(() => reject(error)));
  });
}
