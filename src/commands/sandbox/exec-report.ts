/**
 * What `kactl sandbox exec` tells once its command has ended, while the sandbox still serves:
 * the last requests the sandbox refused (when the command failed: the one thing a CI log most
 * needs, in `kactl sandbox logs`'s line format), and the export `--export-on-exit` asks for (the
 * state file `kactl export` prints). Both go through a fresh signal: they are still wanted after
 * Ctrl-C has aborted the run's own.
 */
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import type { LogRecord } from './log-lines.js';
import { listSandboxRequests } from '../../api/sandbox-admin.js';
import { ownSellerApi } from './own-api.js';
import { logLine } from './log-lines.js';

/** Refusals shown under a failed command: enough to see why, few enough to read in a CI log. */
const REFUSALS_SHOWN = 5;

/**
 * The newest requests refused since `since` (ms; the command's start, so the seed's own calls
 * are not among them), oldest first; none when the inspector is off or kept none.
 */
export async function lastRefusals(ctx: Context, info: SandboxInfo, since: number): Promise<LogRecord[]> {
  const own = await ownSellerApi(ctx, info, new AbortController().signal);
  try {
    const target = { baseUrl: info.baseUrl, adminToken: info.adminToken, transport: own.transport };
    return (await listSandboxRequests(target, { failed: true, since, limit: REFUSALS_SHOWN })).requests;
  } finally {
    await own.close();
  }
}

/** Prints the refusals on stderr under one sentence; nothing when there were none. */
export async function reportRefusals(ctx: Context, info: SandboxInfo, status: number, since: number): Promise<void> {
  let records: LogRecord[];
  try {
    records = await lastRefusals(ctx, info, since);
  } catch (error) {
    ctx.verbose(`request inspector not read: ${(error as Error).message}`);
    return;
  }
  if (records.length === 0) return;
  ctx.output.note(`The command failed (exit ${status}); the last ${records.length === 1 ? 'request' : 'requests'} the sandbox refused:`);
  for (const record of records) ctx.io.err(`  ${logLine(record, { color: ctx.io.stderrColor, now: ctx.now() })}\n`);
}

/** Writes the sandbox's state to `file` as `kactl export` prints it: JSON for a .json name, else YAML. Replaces the file. */
export async function writeExport(ctx: Context, info: SandboxInfo, file: string): Promise<void> {
  const { exportState, stateAsYaml } = await import('../../state/export.js');
  const own = await ownSellerApi(ctx, info, new AbortController().signal);
  let text: string;
  try {
    const { state, refused, notes } = await exportState(own.api, () => own.now());
    for (const line of notes) ctx.output.note(line);
    for (const line of refused) ctx.output.warn(`Left out: ${line}`);
    text = /\.json$/i.test(file) ? `${JSON.stringify(state, null, 2)}\n` : stateAsYaml(state);
  } finally {
    await own.close();
  }
  const { createBeside, placeFile, saveFailure } = await import('../../io/place-file.js');
  let pending: Awaited<ReturnType<typeof createBeside>> | undefined;
  try {
    pending = await createBeside(file);
    await pending.handle.writeFile(text, 'utf8');
    await pending.handle.close();
    // The file is meant to be written again at every run (and read back with --seed).
    await placeFile(pending.path, file, true);
  } catch (error) {
    pending?.discard();
    throw saveFailure(error, file, ctx);
  }
  ctx.output.note(`Exported the sandbox's state to ${file}.`);
}
