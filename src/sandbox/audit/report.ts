/**
 * The audit's report: one result per scenario (what the sandbox did, what a sound program does,
 * what this one did, the requests it made with the inspector's reasons), counts, and a summary
 * that names the worst finding in plain words. Plain data: `-o json` prints it as it is.
 */
import type { AuditApi } from './scenario-types.js';

/**
 * `passed` and `failed` are graded; `informational` is shown, not graded (a hung program fails
 * there too); `skipped` did not apply to this program (`note` says why).
 */
export type AuditStatus = 'passed' | 'failed' | 'informational' | 'skipped';

/** What the program did: started, refused, crashed (counted as a refusal), or was still running at the timeout. */
export type AuditOutcome = 'accepted' | 'refused' | 'crashed' | 'hung';

/** A request the program made, as the sandbox's request inspector recorded it. */
export interface AuditRequest {
  /** `1.3`, `1.2`, or `other` for a path the sandbox does not serve. */
  readonly api: string;
  readonly type: string | null;
  readonly status: number;
  readonly success: boolean | null;
  readonly message: string | null;
  /** Why the sandbox answered so ("license AUDIT-… is banned"); null when the message says it all. */
  readonly reason: string | null;
  /** The fault that changed the answer (`#1 emulate`); null for a genuine answer. */
  readonly fault: string | null;
}

export interface AuditScenarioResult {
  readonly id: string;
  readonly title: string;
  /** What the sandbox did: the state it was put in, or the answers it sent. */
  readonly sandbox: string;
  /** What a sound program does: start (`accepted`) or refuse. */
  readonly expected: 'accepted' | 'refused';
  readonly graded: boolean;
  /** What a sound program does, in words. */
  readonly sound: string;
  readonly status: AuditStatus;
  /** What this program did; null when it was not run (skipped). */
  readonly outcome: AuditOutcome | null;
  /** The same in words: `refused (exit 1)`, `accepted (exit 0)`, `crashed: SIGSEGV`, `hung: still running after 10 s`. */
  readonly did: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  /** A pass with a note (refused by crashing), why it is informational, or why it was skipped. */
  readonly note: string | null;
  /** When it failed: what that means, in plain words. */
  readonly finding: string | null;
  readonly requests: readonly AuditRequest[];
  /** The end of what the program printed (the last 4 KB of each stream). */
  readonly output: { readonly stdout: string; readonly stderr: string };
}

export interface AuditCounts {
  readonly passed: number;
  readonly failed: number;
  readonly informational: number;
  readonly skipped: number;
}

export interface AuditReport {
  /** True when no scenario failed. */
  readonly passed: boolean;
  /** One sentence: the counts, and the worst finding when there is one. */
  readonly summary: string;
  /** The worst failed scenario and its finding, by the order of findings (report.ts). */
  readonly worst: { readonly scenario: string; readonly finding: string } | null;
  readonly api: AuditApi;
  readonly command: readonly string[];
  readonly durationMs: number;
  readonly counts: AuditCounts;
  readonly scenarios: readonly AuditScenarioResult[];
}

/**
 * Findings from the worst: a paying customer refused makes every other result doubtful; then
 * what lets anyone in (a fake server, no signature, a doctored answer, another app's answer, a
 * refusal ignored), what lets a recording in, failing open, and the customer states.
 */
export const FINDING_ORDER: readonly string[] = [
  'valid-license',
  'valid-login',
  'forged',
  'unsigned',
  'tampered',
  'other-app',
  'unknown-key',
  'replayed',
  'stale',
  'future',
  'unreachable',
  'html',
  'truncated',
  'banned',
  'expired',
  'other-hwid',
  'blacklisted-hwid',
  'new-version',
  'paused',
  'app-disabled',
  'replayed-fresh',
  'emulated-secret',
];

function rank(id: string): number {
  const at = FINDING_ORDER.indexOf(id);
  return at < 0 ? FINDING_ORDER.length : at;
}

export function countsOf(results: readonly AuditScenarioResult[]): AuditCounts {
  const count = (status: AuditStatus): number => results.filter((result) => result.status === status).length;
  return { passed: count('passed'), failed: count('failed'), informational: count('informational'), skipped: count('skipped') };
}

/** The worst failed scenario, or null. */
export function worstFinding(results: readonly AuditScenarioResult[]): AuditReport['worst'] {
  const failed = results.filter((result) => result.status === 'failed').sort((a, b) => rank(a.id) - rank(b.id));
  const worst = failed[0];
  return worst === undefined ? null : { scenario: worst.id, finding: worst.finding ?? worst.did };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function summaryOf(counts: AuditCounts, worst: AuditReport['worst']): string {
  const graded = counts.passed + counts.failed;
  const extras = [
    counts.informational > 0 ? `${counts.informational} informational` : '',
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
  ].filter((part) => part !== '');
  const aside = extras.length > 0 ? ` (${extras.join(', ')})` : '';
  if (worst === null) return `Passed: ${graded === 1 ? 'the graded scenario' : `all ${graded} graded scenarios`}${aside}.`;
  return `Failed ${counts.failed} of ${plural(graded, 'graded scenario')}${aside}. Worst: ${worst.finding} (${worst.scenario}).`;
}
