/** One line of a check report (`kactl doctor`, `kactl profile add`): which check, how it went, why. */
import type { KactlErrorCode } from '../../errors.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
  /**
   * For a failure, the error code it stands for (src/api/errors.ts), so its exit code
   * (docs/contracts.md): NETWORK (4) when the server cannot be reached or is not the API, AUTH
   * (3) for a refused key, FAILURE (1) for a refused app, SIGNATURE (5) for a signature.
   * `profile add` fails with it; doctor exits 1 for any failure and does not print it.
   */
  readonly code?: KactlErrorCode;
}

/** How the server checks run, for doctor or for profile add. */
export interface ServerCheckOptions {
  /** The clock check (doctor): a profile is not wrong because this computer's clock is. */
  readonly clock: boolean;
  /** The skip line's reason when a value is missing, in the caller's words (a setting, a flag). */
  readonly missing: { readonly sellerKey: string; readonly app: string; readonly publicKey: string; readonly secret: string };
}

export const pass = (check: string, detail: string): CheckResult => ({ check, status: 'pass', detail });
export const fail = (check: string, detail: string, code?: KactlErrorCode): CheckResult => ({ check, status: 'fail', detail, ...(code === undefined ? {} : { code }) });
export const skip = (check: string, detail: string): CheckResult => ({ check, status: 'skip', detail });

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How a result line starts: a mark on a terminal, a word a log can be searched for elsewhere. */
export function resultMark(status: CheckStatus, terminal: boolean): string {
  return terminal ? MARKS[status] : WORDS[status];
}

const MARKS = { pass: '✓', fail: '✗', skip: '-' } as const;
const WORDS = { pass: 'ok  ', fail: 'FAIL', skip: 'skip' } as const;
