/**
 * What `kactl sandbox exec` tells once its command has ended, while the sandbox still serves:
 * when the command failed, the faults that changed answers on purpose (with their ids, as
 * `kactl sandbox fault list` shows them: a forged or replayed answer is no refusal, so without
 * them a failure under a fault reads as the program's own) and the last requests the sandbox
 * refused (in `kactl sandbox logs`'s line format): what a CI log most needs; and the export `--export-on-exit` asks for (the
 * state file `kactl export` prints). Both go through a fresh signal: they are still wanted after
 * Ctrl-C has aborted the run's own.
 */
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import type { LogRecord } from './log-lines.js';
import { listSandboxRequests } from '../../api/sandbox-admin.js';
import { listSandboxFaults } from '../../api/sandbox-faults.js';
import { describeFilters, faultLabel } from '../../server/faults/spec.js';
import { stripControl } from '../../io/format.js';
import { ownSellerApi } from './own-api.js';
import { logLine } from './log-lines.js';

/** Refusals shown under a failed command: enough to see why, few enough to read in a CI log. */
const REFUSALS_SHOWN = 5;

/** Requests read for the faults no longer in the sandbox's list (cleared during the command). */
const FAULTED_READ = 1000;

/** A fault that changed answers during the command: as the sandbox lists it, or as records name one cleared since. */
export interface FiredFault {
  readonly id: number;
  /** `forge-signature`, `status 503`: the kind and its argument. */
  readonly label: string;
  /** `type=login`, `every request` (none for a cleared fault: the records do not say). */
  readonly filters?: string;
  readonly fired: number;
  /** Cleared before the command ended: `fired` counts the records kept, at least. */
  readonly cleared: boolean;
}

/** What a failed command is shown: the faults that fired, and the newest refusals since `since`. */
export interface FailureReport {
  readonly faults: FiredFault[];
  readonly refusals: LogRecord[];
}

/**
 * The faults that fired (the run's sandbox is fresh: every fault it holds was added during the
 * run) and the newest requests refused since `since` (ms; the command's start, so the seed's own
 * calls are not among them), oldest first; no refusals when the inspector is off or kept none.
 */
export async function failureReport(ctx: Context, info: SandboxInfo, since: number): Promise<FailureReport> {
  const own = await ownSellerApi(ctx, info, new AbortController().signal);
  try {
    const target = { baseUrl: info.baseUrl, adminToken: info.adminToken, transport: own.transport };
    const listed = (await listSandboxFaults(target)).filter((fault) => fault.fired > 0);
    const faults: FiredFault[] = listed.map((fault) => ({ id: fault.id, label: faultLabel({ kind: fault.kind, arg: fault.arg ?? undefined }), filters: describeFilters(fault), fired: fault.fired, cleared: false }));
    const refusals = (await listSandboxRequests(target, { failed: true, since, limit: REFUSALS_SHOWN })).requests;
    const known = new Set(faults.map((fault) => fault.id));
    const seen = (await listSandboxRequests(target, { since, limit: FAULTED_READ })).requests;
    faults.push(...clearedFaults(seen, known));
    faults.sort((a, b) => a.id - b.id);
    return { faults, refusals };
  } finally {
    await own.close();
  }
}

/** Faults the records name (`#3 status 503`) that the sandbox no longer lists, with how many records name each. */
export function clearedFaults(records: readonly LogRecord[], listed: ReadonlySet<number>): FiredFault[] {
  const counts = new Map<number, { label: string; fired: number }>();
  for (const record of records) {
    const match = record.fault === null || record.fault === undefined ? null : /^#(\d+) (.+)$/.exec(record.fault);
    if (match === null) continue;
    const id = Number(match[1]);
    if (listed.has(id)) continue;
    const entry = counts.get(id) ?? { label: match[2]!, fired: 0 };
    entry.fired += 1;
    counts.set(id, entry);
  }
  return [...counts].map(([id, { label, fired }]) => ({ id, label, fired, cleared: true }));
}

/** Prints what a failed command is shown on stderr, each part under one sentence; nothing when there is nothing to show. */
export async function reportFailure(ctx: Context, info: SandboxInfo, status: number, since: number): Promise<void> {
  let report: FailureReport;
  try {
    report = await failureReport(ctx, info, since);
  } catch (error) {
    ctx.verbose(`request inspector not read: ${(error as Error).message}`);
    return;
  }
  const { faults, refusals } = report;
  if (faults.length > 0) {
    ctx.output.note(`The command failed (exit ${status}) while ${faults.length === 1 ? 'a fault' : `${faults.length} faults`} changed the sandbox's answers on purpose:`);
    for (const fault of faults) ctx.io.err(`  ${faultLine(fault)}\n`);
  }
  if (refusals.length === 0) return;
  const lead = faults.length > 0 ? 'The last' : `The command failed (exit ${status}); the last`;
  ctx.output.note(`${lead} ${refusals.length === 1 ? 'request' : 'requests'} the sandbox refused:`);
  for (const record of refusals) ctx.io.err(`  ${logLine(record, { color: ctx.io.stderrColor, now: ctx.now() })}\n`);
}

/** `fault #1 forge-signature on type=login: fired 2 times`, `fault #3 status 503 (cleared during the command): fired 1 time`. */
export function faultLine(fault: FiredFault): string {
  const times = `${fault.fired} ${fault.fired === 1 ? 'time' : 'times'}`;
  if (fault.cleared) return stripControl(`fault #${fault.id} ${fault.label} (cleared during the command): fired ${times} or more`);
  return stripControl(`fault #${fault.id} ${fault.label} on ${fault.filters ?? 'every request'}: fired ${times}`);
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
