/**
 * main(argv) → exit code. Builds the program, runs it, and turns every error into one clear
 * sentence on stderr and the exit code of the design's table. Never exits the process itself:
 * only bin/kactl.js does, so tests can call main() in-process.
 */
import { CommanderError } from 'commander';
import type { SystemDeps } from './context.js';
import { Context } from './context.js';
import { buildProgram } from './program.js';
import { ExitCode, InterruptedError, KactlError, UsageError } from './errors.js';

export async function main(argv: readonly string[], deps: Partial<SystemDeps> = {}): Promise<number> {
  const ctx = new Context({
    stdin: deps.stdin ?? process.stdin,
    stdout: deps.stdout ?? process.stdout,
    stderr: deps.stderr ?? process.stderr,
    env: deps.env ?? process.env,
    signal: deps.signal ?? new AbortController().signal,
    now: deps.now ?? Date.now,
    runtime: deps.runtime ?? { node: process.versions.node, platform: process.platform, arch: process.arch },
  });
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    await ctx.close();
  }
}

function reportError(ctx: Context, error: unknown): number {
  if (error instanceof CommanderError) return commanderExitCode(error);
  // An abort from Ctrl-C surfaces as whatever the interrupted call threw; the signal is the truth.
  const failure = ctx.signal.aborted && !(error instanceof KactlError) ? new InterruptedError() : error;
  if (failure instanceof KactlError) {
    ctx.output.error(failure.message);
    for (const hint of failure.hints) ctx.io.err(`${ctx.output.dim(hint)}\n`);
    if (failure instanceof UsageError) ctx.io.err(ctx.output.dim(`Run '${ctx.currentCommand} --help' for usage.`) + '\n');
    if (ctx.globals.verbose) printCause(ctx, failure);
    return failure.exitCode;
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  ctx.output.error(`unexpected failure: ${message}`);
  if (ctx.globals.verbose) printCause(ctx, failure);
  else ctx.io.err(ctx.output.dim('Run again with --verbose for the stack trace.') + '\n');
  return ExitCode.failure;
}

function printCause(ctx: Context, error: unknown): void {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    ctx.io.err(`${current.stack ?? current.message}\n`);
  }
}

/** Help and version exit 0; every parse error (unknown command, bad flag, missing argument) is usage: 2. */
function commanderExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
  if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  return ExitCode.usage;
}
