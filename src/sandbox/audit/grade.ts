/**
 * What a run of the program means for its scenario. Exit status 0 is accepted and anything else
 * refused, unless `acceptedWhen` is given (then its match on stdout decides); a signal, or an
 * uncaught exception on stderr with a failure status, is a crash, which refuses (a pass with a
 * note where a refusal is expected); a program still running at the timeout hung, which fails
 * every scenario.
 */
import { uncaughtException } from './crash.js';
import type { ProgramRun } from './program-run.js';
import type { AuditOutcome, AuditStatus } from './report.js';
import type { AuditScenarioDef, RunFacts } from './scenario-types.js';

export interface Judged {
  readonly outcome: AuditOutcome;
  readonly did: string;
}

export interface Graded extends Judged {
  readonly status: AuditStatus;
  readonly note: string | null;
  readonly finding: string | null;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** What the program did, in a word and in words. */
export function judgeRun(run: ProgramRun, options: { readonly acceptedWhen?: RegExp | undefined; readonly timeoutMs: number }): Judged {
  if (run.hung) return { outcome: 'hung', did: `hung: still running after ${seconds(options.timeoutMs)} (ended)` };
  if (run.signal !== null) return { outcome: 'crashed', did: `crashed: killed by ${run.signal}` };
  const exit = `exit ${run.exitCode ?? '?'}`;
  const crash = run.exitCode === 0 ? undefined : uncaughtException(run.stderr);
  if (crash !== undefined) return { outcome: 'crashed', did: `crashed: ${crash} (${exit})` };
  if (options.acceptedWhen !== undefined) {
    // A fresh copy: a global or sticky expression keeps its place between tests.
    const matched = new RegExp(options.acceptedWhen.source, options.acceptedWhen.flags.replace(/[gy]/g, '')).test(run.stdout);
    return matched ? { outcome: 'accepted', did: `accepted (stdout matched; ${exit})` } : { outcome: 'refused', did: `refused (stdout did not match; ${exit})` };
  }
  return run.exitCode === 0 ? { outcome: 'accepted', did: 'accepted (exit 0)' } : { outcome: 'refused', did: `refused (${exit})` };
}

const CRASH_NOTE = 'Refused by crashing: a refusal with a message would tell the customer why.';

/** The scenario's status, note and finding for what the program did. */
export function gradeRun(def: AuditScenarioDef, judged: Judged, facts: RunFacts): Graded {
  const { outcome } = judged;
  if (outcome === 'hung') return { ...judged, status: 'failed', note: null, finding: `hung on ${def.title}: it was still running at the timeout` };
  const notApplicable = def.appliesAfter?.(facts);
  if (notApplicable !== undefined) return { ...judged, status: 'skipped', note: `Not applicable: ${notApplicable}.`, finding: null };
  if (!def.graded) return { ...judged, status: 'informational', note: def.informational ?? null, finding: null };
  const refusedIt = outcome === 'refused' || outcome === 'crashed';
  if (def.expected === 'accepted') {
    return outcome === 'accepted' ? { ...judged, status: 'passed', note: null, finding: null } : { ...judged, status: 'failed', note: null, finding: def.finding };
  }
  if (!refusedIt) return { ...judged, status: 'failed', note: null, finding: def.finding };
  return { ...judged, status: 'passed', note: outcome === 'crashed' ? CRASH_NOTE : null, finding: null };
}
