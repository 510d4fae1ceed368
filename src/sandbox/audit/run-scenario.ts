/**
 * One scenario: the sandbox put back to the audit's starting state (a snapshot restore, faults
 * cleared), armed as the scenario says, the program run once against it, and the result made of
 * what it did and the requests it made (the request inspector's records since the arming).
 */
import { KactlError } from '../../api/errors.js';
import type { KactlSeller } from '../../api/kactl-seller.js';
import type { LoggedRequest } from '../../api/sandbox-admin.js';
import type { Sandbox, SandboxSnapshot } from '../types.js';
import { armContext } from './arm-context.js';
import { gradeRun, judgeRun } from './grade.js';
import { UNKNOWN_IDENTITY, type AuditIdentity } from './identity.js';
import type { AuditSettings } from './options.js';
import { runProgram } from './program-run.js';
import { programEnv } from './program-env.js';
import type { AuditRequest, AuditScenarioResult } from './report.js';
import type { AuditScenarioDef } from './scenario-types.js';

export interface ScenarioDeps {
  readonly sandbox: Sandbox;
  readonly seller: KactlSeller;
  readonly settings: AuditSettings;
  readonly customer: AuditIdentity;
  readonly start: SandboxSnapshot;
  /** The HWID the program sent in an earlier scenario. */
  readonly hwid: string | undefined;
  readonly cwd: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly now: () => number;
  /** Turns the sandbox's clock from real time (runner.ts). */
  readonly shiftClock: (ms: number) => void;
}

/** The end of a stream for the report: its last characters. */
const TAIL_CHARS = 4096;

function tail(text: string): string {
  return text.length <= TAIL_CHARS ? text : `…${text.slice(-TAIL_CHARS)}`;
}

function auditRequest(record: LoggedRequest): AuditRequest {
  return { api: record.api, type: record.type, status: record.status, success: record.success, message: record.message, reason: record.reason, fault: record.fault };
}

function notRun(def: AuditScenarioDef, settings: AuditSettings, note: string): AuditScenarioResult {
  return {
    ...describe(def, settings),
    status: 'skipped',
    outcome: null,
    did: 'not run',
    exitCode: null,
    signal: null,
    durationMs: 0,
    note,
    finding: null,
    requests: [],
    output: { stdout: '', stderr: '' },
  };
}

function describe(def: AuditScenarioDef, settings: AuditSettings): Pick<AuditScenarioResult, 'id' | 'title' | 'sandbox' | 'expected' | 'graded' | 'sound'> {
  return { id: def.id, title: def.title, sandbox: def.sandbox(settings.api), expected: def.expected, graded: def.graded, sound: def.sound };
}

/** The newest record id now: the program's requests are those after it. */
async function lastRecordId(sandbox: Sandbox): Promise<number> {
  return (await sandbox.logs({ limit: 1 })).at(-1)?.id ?? 0;
}

export async function runScenario(def: AuditScenarioDef, deps: ScenarioDeps): Promise<{ result: AuditScenarioResult; hwid: string | undefined }> {
  const { sandbox, settings } = deps;
  await sandbox.restore(deps.start);
  await sandbox.faults.clear();
  let armed;
  try {
    armed = await def.arm(armContext({ sandbox, seller: deps.seller, api: settings.api, customer: deps.customer, hwid: deps.hwid, appVersion: sandbox.app.version, shiftClock: deps.shiftClock }));
  } catch (error) {
    if (!(error instanceof KactlError) || error.code !== 'FAILURE') throw error;
    return { result: notRun(def, settings, `Not run: the sandbox could not be set up for it (${error.message.replace(/\.$/, '')}).`), hwid: undefined };
  }
  if ('notApplicable' in armed) return { result: notRun(def, settings, `Not applicable: ${armed.notApplicable}.`), hwid: undefined };
  const identity = armed.credentials === 'customer' ? deps.customer : UNKNOWN_IDENTITY;
  const url = armed.url ?? `${sandbox.baseUrl}/api/${settings.api}/`;
  const mark = await lastRecordId(sandbox);
  const run = await runProgram(settings.command, {
    env: programEnv(settings.env, { url, app: sandbox.app, publicKey: sandbox.publicKey }, identity, def.id),
    cwd: deps.cwd,
    stdin: settings.keyStdin ? `${identity.key}\n` : undefined,
    timeoutMs: settings.timeoutMs,
    signal: deps.signal,
    now: deps.now,
  });
  const records = (await sandbox.logs({ after: mark, limit: 1000 })).filter((record) => record.api !== 'admin' && record.api !== 'seller');
  const judged = judgeRun(run, settings);
  const graded = gradeRun(def, judged, { types: records.flatMap((record) => (record.type === null ? [] : [record.type])) });
  const result: AuditScenarioResult = {
    ...describe(def, settings),
    ...graded,
    exitCode: run.exitCode,
    signal: run.signal,
    durationMs: run.durationMs,
    requests: records.map(auditRequest),
    output: { stdout: tail(run.stdout), stderr: tail(run.stderr) },
  };
  return { result, hwid: records.find((record) => record.params.hwid !== undefined)?.params.hwid };
}
