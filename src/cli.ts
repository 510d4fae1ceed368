/**
 * main(argv) → exit code. Builds the program, runs it, and turns every error into one clear
 * sentence on stderr and the exit code of the design's table. Never exits the process itself:
 * only bin/kactl.js does, so tests can call main() in-process.
 */
import { isatty } from 'node:tty';
import { CommanderError } from 'commander';
import type { SystemDeps } from './context.js';
import { Context } from './context.js';
import { LazyInput } from './io/streams.js';
import { buildProgram } from './program.js';
import { ExitCode, exitCodeOf, InterruptedError, KactlError, PartialFailure, SetupError, wantsUsageLine } from './errors.js';
import { cliHints, cliMessage } from './error-hints.js';
import { storageFailure } from './io/storage-errors.js';

export async function main(argv: readonly string[], deps: Partial<SystemDeps> = {}): Promise<number> {
  const ctx = new Context({
    stdin: deps.stdin ?? new LazyInput(isatty(0), () => process.stdin),
    stdout: deps.stdout ?? process.stdout,
    stderr: deps.stderr ?? process.stderr,
    env: deps.env ?? process.env,
    signal: deps.signal ?? new AbortController().signal,
    now: deps.now ?? Date.now,
    runtime: deps.runtime ?? { node: process.versions.node, platform: process.platform, arch: process.arch },
  });
  try {
    // `main` itself goes down the tree to the commands that run kactl again (the demo, `kactl test`).
    const program = await buildProgram(ctx, argv, main);
    await program.parseAsync([...argv], { from: 'user' });
    // A terminal reports a failed write after it returns: the run did not deliver all it printed.
    const late = ctx.io.stdoutFailure();
    return late ? reportError(ctx, late) : ctx.exitCode;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    await ctx.close();
  }
}

function reportError(ctx: Context, error: unknown): number {
  if (error instanceof CommanderError) return commanderExitCode(error);
  // An abort from Ctrl-C surfaces as whatever the interrupted call threw; the signal is the truth.
  // A file-system refusal (a full disk, a read-only folder) becomes its sentence.
  const failure = ctx.signal.aborted && !(error instanceof KactlError) ? new InterruptedError() : (storageFailure(error, ctx) ?? error);
  if (failure instanceof KactlError) {
    // A bulk job that stopped part way has printed what it made; one JSON document on stdout,
    // unless stdout is what failed.
    const message = cliMessage(failure);
    if (ctx.output.wantsJson && !(failure instanceof PartialFailure) && !stdoutFailed(failure)) printJsonError(ctx, exitCodeOf(failure), message, serverBody(failure));
    ctx.output.error(message);
    for (const hint of cliHints(failure)) ctx.output.hint(hint);
    if (wantsUsageLine(failure)) ctx.output.hint(`Run '${ctx.currentCommand} --help' for usage.`);
    // A refusal (the server said no, a usage slip, a refused key) has no stack worth reading.
    if (ctx.globals.verbose && isFault(failure)) printCause(ctx, failure);
    return exitCodeOf(failure);
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  if (ctx.output.wantsJson) printJsonError(ctx, ExitCode.failure, `unexpected failure: ${message}`, undefined);
  ctx.output.error(`unexpected failure: ${message}`);
  if (ctx.globals.verbose) printCause(ctx, failure);
  else ctx.output.hint('Run again with --verbose for the stack trace.');
  return ExitCode.failure;
}

function stdoutFailed(error: KactlError): boolean {
  return error instanceof SetupError && error.stream === 'stdout';
}

/** Exit codes of faults: something broke (network, a bad or badly signed answer), not a refusal. */
const FAULT_CODES: ReadonlySet<number> = new Set([ExitCode.network, ExitCode.signature]);

/** True when the error, or anything in its cause chain, is a fault or not one of ours at all. */
function isFault(error: unknown): boolean {
  for (let current: unknown = error; current !== undefined; current = current instanceof Error ? current.cause : undefined) {
    if (!(current instanceof KactlError) || FAULT_CODES.has(exitCodeOf(current))) return true;
  }
  return false;
}

/** The server's answer carried by a refusal, if any. */
function serverBody(error: KactlError): Record<string, unknown> | undefined {
  const body = (error as { body?: unknown }).body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/**
 * With `--json` (or `-o json`) every failure is one JSON object on stdout, the same for every
 * command: the server's answer when there was one, then `success: false`, the sentence in
 * `message`, and `error: { code, message }` with the exit code. The sentence still goes to stderr.
 */
function printJsonError(ctx: Context, code: number, message: string, body: Record<string, unknown> | undefined): void {
  // `sandbox start --json` is a server whose stdout is its ready line, read line by line.
  if (ctx.currentCommand === 'kactl sandbox start') return;
  try {
    ctx.output.json({ ...body, success: false, message, error: { code, message } });
  } catch {
    // stdout refuses writes too: the sentence on stderr is all there can be.
  }
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
