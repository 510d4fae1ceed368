/**
 * `kactl sandbox stop [NAME] [--all]`: SIGTERM a running sandbox (foreground or --detach), wait
 * until it has closed its store and removed its registry entry, and say so. NAME is the profile
 * it saved, or its pid; without one: the sandbox of the selected profile, else the only one
 * running.
 *
 * Only a registered process that still has the identity its sandbox recorded is signalled, and
 * it is checked again right before the signal (registry.ts, process-identity.ts): a pid that
 * was reused by another process is left alone and its entry dropped.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom, RUNNING_SANDBOXES } from '../completion/value-source.js';
import { ExitCode, KactlError, UsageError } from '../../errors.js';
import { forgetAutoProfile, runningSandboxes } from './profile.js';
import { forgetSandbox, isRegistered, isSameSandbox, type SandboxEntry } from './registry.js';
import { sendSignal } from './self-process.js';

/** A clean close lets in-flight requests finish (up to 10 s) before the store closes. */
const STOP_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

export function registerSandboxStop(group: Command, ctx: Context): void {
  group
    .command('stop')
    .description('stop a running sandbox (by profile name or pid) and wait for its store to close')
    .addArgument(completeFrom(new Argument('[name]', 'profile name the sandbox saved, or its pid (default: the selected profile\'s, or the only one running)'), RUNNING_SANDBOXES))
    .option('--all', 'stop every running sandbox')
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox stop\n  $ kactl sandbox stop sandbox-8794\n  $ kactl sandbox stop --all')
    .action(async (name: string | undefined, options: { all?: boolean }) => {
      const running = await runningSandboxes(ctx);
      const targets = options.all ? running : [await pick(ctx, running, name)];
      if (targets.length === 0) return ctx.output.note('No sandbox is running.');
      for (const entry of targets) await stopOne(ctx, entry);
    });
}

async function pick(ctx: Context, running: readonly SandboxEntry[], name: string | undefined): Promise<SandboxEntry> {
  const list = running.map((entry) => `${entry.profile ?? '(no profile)'} pid ${entry.pid} ${entry.baseUrl ?? ''}`.trim()).join('; ');
  if (name !== undefined) {
    const found = running.find((entry) => entry.profile === name || String(entry.pid) === name);
    if (found) return found;
    throw new UsageError(
      running.length === 0 ? `No sandbox is running, so none named "${name}".` : `No running sandbox has the profile or pid "${name}" (running: ${list}).`,
    );
  }
  if (running.length === 0) throw new UsageError('No sandbox is running.', { hints: ['Start one with: kactl sandbox start --detach'] });
  const selected = ctx.globals.profile ?? ctx.env.KACTL_PROFILE ?? (await ctx.config()).read().active;
  const mine = running.find((entry) => entry.profile === selected);
  if (mine) return mine;
  if (running.length === 1) return running[0]!;
  throw new UsageError(`${running.length} sandboxes are running; say which (a profile name or pid), or --all: ${list}.`);
}

async function stopOne(ctx: Context, entry: SandboxEntry): Promise<void> {
  const who = `the sandbox ${entry.baseUrl ? `at ${entry.baseUrl} ` : ''}(pid ${entry.pid})`;
  let signalled = false;
  if (isSameSandbox(entry)) {
    try {
      sendSignal(entry.pid, 'SIGTERM');
      signalled = true;
    } catch {
      // gone since the check
    }
  }
  if (!signalled) {
    await forgetAutoProfile(ctx, entry);
    forgetSandbox(ctx.dataDir, entry);
    ctx.output.note(`${capitalize(who)} had already gone; its entry is removed.`);
    return;
  }
  const deadline = ctx.now() + STOP_TIMEOUT_MS;
  while (isRegistered(ctx.dataDir, entry) && isSameSandbox(entry)) {
    if (ctx.now() > deadline) {
      throw new KactlError(`${capitalize(who)} did not stop within ${STOP_TIMEOUT_MS / 1000} s; end it with: kill -9 ${entry.pid}`, ExitCode.failure);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  // Gone without cleaning up (killed meanwhile): neither its profile nor its entry may outlive it.
  if (isRegistered(ctx.dataDir, entry)) await forgetAutoProfile(ctx, entry);
  forgetSandbox(ctx.dataDir, entry);
  ctx.output.success(`Stopped ${who}; store closed.${entry.logFile ? ` Log kept at ${entry.logFile}` : ''}`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
