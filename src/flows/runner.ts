/**
 * Runs the flows of a flows file. Every client and seller step is a real kactl command run in
 * this process (`kactl client call …`, `kactl seller call …`, `kactl sandbox advance …`): what
 * a flow checks is exactly what kactl does, exit codes included, and the flow's client
 * session lives in the flow's own config folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import type { EnvRecord } from '../env.js';
import { resolveClientOp } from '../api/client-catalog/index.js';
import type { InProcessResult, RunKactl } from './run-kactl.js';
import { durationDays, escapeDollars } from '../state/load.js';
import { flowFolder, openTarget } from './target.js';
import type { Target } from './target.js';
import { firstLine, mismatch, show, valueAt } from './values.js';
import { logFailures, logMark } from './log-expect.js';
import { approveMagicLink } from './magic-link.js';
import { faultArgv, faultWords, isClear, type FaultStepValue } from './fault-step.js';
import { sellerType } from './step-check.js';

type Row = Record<string, unknown>;

/** A step as the flows schema allows it (load.ts has checked the file against it). */
interface Step {
  name?: string;
  client?: string;
  seller?: string;
  advance?: string | number;
  approve?: string;
  code?: string;
  with?: Row;
  save?: Record<string, string>;
  expect?: Row;
  expect_log?: Row;
  fault?: FaultStepValue;
}

export interface StepReport {
  index: number;
  label: string;
  passed: boolean;
  failures: string[];
  answer?: unknown;
  exit: number;
  ms: number;
  /** The faults the sandbox was told to inject while this step ran (`fault:` steps before it). */
  faults?: string[];
}

export interface FlowReport {
  name: string;
  passed: boolean;
  skipped: boolean;
  steps: StepReport[];
  ms: number;
}

export interface FileReport {
  file: string;
  flows: FlowReport[];
  ms: number;
}

interface FlowState {
  env: EnvRecord;
  runKactl: RunKactl;
  saved: Record<string, unknown>;
  totpSecret?: string;
  /** The flow checks the request log (`expect_log:`): each action step notes where its requests start. */
  checksLog: boolean;
  /** The newest request log id before the latest action step. */
  logMark?: number;
  /** The faults installed by the flow's `fault:` steps so far (cleared by `fault: clear`). */
  faults: string[];
  /** A `fault:` step ran: the flow's faults are cleared when it ends. */
  addedFaults: boolean;
}

export interface RunOptions {
  bail: boolean;
  /** Runs one kactl command line in this process (the command hands in commands/demo/in-process.ts). */
  runKactl: RunKactl;
  onStep: (flow: string, step: StepReport) => void;
  onFlow: (flow: FlowReport) => void;
}

const ACTIONS = ['client', 'seller', 'advance', 'approve', 'fault'] as const;

function stepLabel(step: Step): string {
  if (step.name !== undefined) return step.name;
  if (step.fault !== undefined) return `fault ${faultWords(step.fault)}`;
  for (const kind of ['client', 'seller', 'advance', 'approve'] as const) if (step[kind] !== undefined) return `${kind} ${step[kind]}`;
  return step.expect_log !== undefined ? 'expect_log' : 'step';
}

/** A value as text: objects as JSON. */
function textOf(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${name}` from the flow's saved values, then the environment; an unknown name is a failure. */
function interpolate(value: unknown, state: FlowState, missing: string[]): unknown {
  if (typeof value !== 'string') return value;
  const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
  if (whole && whole[1]! in state.saved) return state.saved[whole[1]!];
  return value.replace(VARIABLE, (match, name: string) => {
    const found = name in state.saved ? state.saved[name] : state.env[name];
    if (found === undefined) {
      missing.push(`\${${name}} is neither saved by an earlier step nor set in the environment`);
      return match;
    }
    return textOf(found);
  });
}

function parseAnswer(result: InProcessResult): unknown {
  const text = result.stdout.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function kactl(state: FlowState, ctx: Context, argv: string[]): Promise<InProcessResult> {
  return state.runKactl(argv, { env: state.env, terminal: false, columns: 100, signal: ctx.signal, now: ctx.now });
}

/** The sandbox's time (its clock may have been advanced), for authenticator codes. */
async function sandboxNow(state: FlowState, ctx: Context): Promise<number> {
  const result = await kactl(state, ctx, ['sandbox', 'clock', '--json']);
  const offset = (parseAnswer(result) as { offset?: unknown } | undefined)?.offset;
  return ctx.now() + (typeof offset === 'number' ? offset * 1000 : 0);
}

async function latestOutbox(state: FlowState, ctx: Context, kind: string): Promise<Row | undefined> {
  const result = await kactl(state, ctx, ['sandbox', 'outbox', '--kind', kind, '--json']);
  const messages = parseAnswer(result);
  if (result.code !== 0 || !Array.isArray(messages)) throw new Error(`the sandbox outbox could not be read: ${firstLine(result.stderr)}`);
  return (messages as Row[]).at(-1);
}

async function runStep(ctx: Context, step: Step, index: number, state: FlowState): Promise<StepReport> {
  const started = Date.now();
  const label = stepLabel(step);
  const failures: string[] = [];
  // A step run while faults are installed says so (the `fault:` step itself names its own).
  const faults = step.fault === undefined && state.faults.length > 0 ? { faults: [...state.faults] } : {};
  const done = (exit: number, answer?: unknown): StepReport => ({ index, label, passed: failures.length === 0, failures, answer, exit, ms: Date.now() - started, ...faults });
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.with ?? {})) params[name] = textOf(interpolate(value, state, failures));
  if (failures.length > 0) return done(-1);
  const run = (argv: string[]): Promise<InProcessResult> => kactl(state, ctx, argv);
  const checkLog = async (): Promise<void> => {
    if (step.expect_log === undefined) return;
    const expected = Object.fromEntries(Object.entries(step.expect_log).map(([key, value]) => [key, interpolate(value, state, failures)]));
    failures.push(...(await logFailures(run, state.logMark ?? 0, expected)));
  };
  if (!ACTIONS.some((kind) => step[kind] !== undefined) && step.expect_log !== undefined) {
    // Alone, it checks the requests of the step before.
    try {
      await checkLog();
    } catch (error) {
      failures.push((error as Error).message);
    }
    return done(failures.length === 0 ? 0 : -1);
  }

  let result: InProcessResult;
  try {
    if (state.checksLog) state.logMark = await logMark(run);
    const ran = await runAction(ctx, step, state, params);
    if ('failure' in ran) return (failures.push(ran.failure), done(-1));
    result = ran;
  } catch (error) {
    failures.push((error as Error).message);
    return done(-1);
  }

  let answer = parseAnswer(result);
  // One new key comes back as `key`, several as `keys`: flows may read `keys[0]` either way.
  if (answer !== null && typeof answer === 'object' && typeof (answer as Row).key === 'string' && (answer as Row).keys === undefined && (step.seller ?? '').match(/^(add|licenses create)$/)) {
    answer = { ...(answer as Row), keys: [(answer as Row).key] };
  }
  const secret = valueAt(answer, '2fa.secret_code');
  if (typeof secret === 'string' && secret !== '') state.totpSecret = secret;

  checkExpect(step.expect, result, answer, state, failures);
  try {
    await checkLog();
  } catch (error) {
    failures.push((error as Error).message);
  }
  if (failures.length === 0) {
    for (const [name, where] of Object.entries(step.save ?? {})) {
      const value = valueAt(answer, where);
      if (value === undefined) failures.push(`save ${name}: the answer has nothing at ${where}`);
      else state.saved[name] = value;
    }
  }
  return done(result.code, answer);
}

/** The step's action (with its `code:`): kactl's result, or why it could not run. */
async function runAction(ctx: Context, step: Step, state: FlowState, params: Record<string, string>): Promise<InProcessResult | { failure: string }> {
  if (step.code === 'totp') {
    if (state.totpSecret === undefined) return { failure: 'code: totp needs an earlier 2faenable step that returned a secret' };
    const { Secret, TOTP } = await import('otpauth');
    params.code = new TOTP({ secret: Secret.fromBase32(state.totpSecret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: await sandboxNow(state, ctx) });
  } else if (step.code === 'from-outbox') {
    const message = await latestOutbox(state, ctx, 'email-code');
    const code = /code:\s*(\S+)\s*$/.exec(textOf(message?.subject ?? ''))?.[1];
    if (code === undefined) return { failure: 'code: from-outbox found no emailed code in the sandbox outbox' };
    params.code = code;
  }
  const pairs = Object.entries(params).map(([name, value]) => `${name}=${value}`);
  // By wire type (`2faenable`) or kactl command (`2fa enable`): step-check.ts let only those through.
  if (step.client !== undefined) return kactl(state, ctx, ['client', 'call', resolveClientOp(step.client)?.type ?? step.client, ...pairs, '--json']);
  if (step.seller !== undefined) {
    const type = sellerType(step.seller);
    if (type === undefined) return { failure: `"${step.seller}" is not a seller operation (a wire type such as add, or a kactl verb such as "licenses create")` };
    return kactl(state, ctx, ['seller', 'call', type, ...pairs, '--json']);
  }
  if (step.advance !== undefined) return kactl(state, ctx, ['sandbox', 'advance', `${Math.round(durationDays(step.advance) * 86_400)}s`, '--json']);
  if (step.fault !== undefined) {
    state.addedFaults = true;
    const result = await kactl(state, ctx, faultArgv(step.fault));
    if (result.code === 0) state.faults = isClear(step.fault) ? [] : [...state.faults, faultWords(step.fault)];
    return result;
  }
  if (step.approve === 'magic-link') {
    const link = (await latestOutbox(state, ctx, 'magic-link'))?.link;
    if (typeof link !== 'string') return { failure: 'approve: magic-link found no magic link in the sandbox outbox' };
    const answer = await approveMagicLink(link);
    return { code: answer.ok ? 0 : 1, stdout: JSON.stringify({ success: answer.ok, message: answer.message }), stderr: answer.ok ? '' : answer.message, combined: '' };
  }
  return { failure: 'a step needs one of client, seller, advance, approve or fault (or expect_log alone)' };
}

/** `expect:` against the answer and exit code (none: the step must exit 0). */
function checkExpect(expect: Row | undefined, result: InProcessResult, answer: unknown, state: FlowState, failures: string[]): void {
  if (expect === undefined) {
    if (result.code !== 0) failures.push(`exit: expected 0, got ${result.code} (${firstLine(result.stderr) || 'no message'})`);
    return;
  }
  for (const [key, raw] of Object.entries(expect)) {
    const expected = interpolate(raw, state, failures);
    const actual = key === 'exit' ? result.code : valueAt(answer, key);
    const wrong = mismatch(expected, actual);
    if (wrong) failures.push(`${key}: expected ${show(expected)}, got ${show(actual)}`);
  }
  // The server's own words explain most failures: add them when no expectation shows them.
  const message = valueAt(answer, 'message');
  if (failures.length > 0 && expect.message === undefined && typeof message === 'string') failures.push(`the answer said ${show(message)}`);
}

/** Seeds a sandbox with a state body or file, through `kactl apply` like a user would. */
async function seed(ctx: Context, runKactl: RunKactl, flowsFile: string, value: unknown, target: Target): Promise<void> {
  const folder = await flowFolder(ctx, target);
  try {
    let file: string;
    if (typeof value === 'string') file = path.resolve(path.dirname(flowsFile), value);
    else {
      // Read already (environment included): written so that `apply` reads it back as it is.
      file = path.join(String(folder.env.KACTL_CONFIG_DIR), 'seed.json');
      fs.writeFileSync(file, JSON.stringify(escapeDollars(value)), { mode: 0o600 });
    }
    const result = await runKactl(['apply', '-f', file, '--yes'], { env: folder.env, terminal: false, columns: 100, signal: ctx.signal, now: ctx.now });
    if (result.code !== 0) throw new Error(`seed ${typeof value === 'string' ? value : '(inline)'} could not be applied: ${firstLine(result.stderr)}`);
  } finally {
    folder.dispose();
  }
}

export async function runFile(ctx: Context, file: string, flowsBody: Row, options: RunOptions): Promise<FileReport> {
  const started = Date.now();
  const flows = flowsBody.flows as { name: string; steps: Step[] }[];
  const target = await openTarget(ctx);
  const reports: FlowReport[] = [];
  try {
    let seedError: string | undefined;
    if (flowsBody.seed !== undefined) {
      try {
        await seed(ctx, options.runKactl, file, flowsBody.seed, target);
      } catch (error) {
        seedError = (error as Error).message;
      }
    }
    let stop = false;
    for (const flow of flows) {
      const flowStarted = Date.now();
      if (stop) {
        const report: FlowReport = { name: flow.name, passed: true, skipped: true, steps: [], ms: 0 };
        reports.push(report);
        options.onFlow(report);
        continue;
      }
      const steps: StepReport[] = [];
      if (seedError !== undefined) {
        const report: StepReport = { index: 0, label: 'seed', passed: false, failures: [seedError], exit: -1, ms: 0 };
        steps.push(report);
        options.onStep(flow.name, report);
      } else {
        const folder = await flowFolder(ctx, target);
        const state: FlowState = { env: folder.env, runKactl: options.runKactl, saved: {}, checksLog: flow.steps.some((step) => step.expect_log !== undefined), faults: [], addedFaults: false };
        try {
          for (const [index, step] of flow.steps.entries()) {
            const report = await runStep(ctx, step, index, state);
            steps.push(report);
            options.onStep(flow.name, report);
            if (!report.passed) break;
          }
        } finally {
          // The next flow starts with a sandbox that answers as it should.
          if (state.addedFaults) await kactl(state, ctx, ['sandbox', 'fault', 'clear', '--json']).catch(() => undefined);
          folder.dispose();
        }
      }
      const report: FlowReport = { name: flow.name, passed: steps.every((s) => s.passed), skipped: false, steps, ms: Date.now() - flowStarted };
      reports.push(report);
      options.onFlow(report);
      if (!report.passed && options.bail) stop = true;
    }
  } finally {
    await target.close();
  }
  return { file, flows: reports, ms: Date.now() - started };
}
