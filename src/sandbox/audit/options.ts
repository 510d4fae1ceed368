/**
 * What `audit()` takes (kactl/sandbox), checked once before anything starts: a mistake is one
 * UsageError naming the option, never a half-run audit.
 */
import { UsageError } from '../../api/errors.js';
import type { SandboxState } from '../seed.js';
import { pickScenarios } from './catalog.js';
import type { AuditScenarioResult } from './report.js';
import type { AuditApi, AuditScenarioDef } from './scenario-types.js';

export interface AuditOptions {
  /** The program and its arguments, e.g. `['python3', 'app.py']`: run once per scenario. */
  readonly command: readonly string[];
  /** Only these scenarios (ids, `AUDIT_SCENARIOS` lists them); default: all of the API's. */
  readonly scenarios?: readonly string[];
  /** All of the API's scenarios but these. */
  readonly skip?: readonly string[];
  /** The client API the program speaks (KEYAUTH_URL ends in `/api/<api>/`). Default `1.3`. */
  readonly api?: AuditApi;
  /** How long one run may take before it counts as hung, in ms. Default 10 000. */
  readonly timeoutMs?: number;
  /** A run is accepted when its stdout matches this (a RegExp or its source), instead of by exit status 0. */
  readonly acceptedWhen?: RegExp | string;
  /** Also write the license key and a newline to the program's stdin (programs that ask "Enter license:"). */
  readonly keyStdin?: boolean;
  /** A state file (YAML or JSON) or object applied to the sandbox first, as `startSandbox`'s seed. */
  readonly seed?: string | SandboxState;
  /**
   * The program's environment, to which the audit adds its KEYAUTH_* variables, and where a seed
   * file's `!env NAME` values are read. Default: none, so pass `process.env` to hand the program
   * yours (its PATH included).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The program's working folder. Default: this process's. */
  readonly cwd?: string;
  /** Aborts the audit: the running program is ended and the promise rejects with an InterruptedError. */
  readonly signal?: AbortSignal;
  /** Called as each scenario ends, before the next starts (progress). */
  readonly onScenario?: (result: AuditScenarioResult, index: number, total: number) => void;
}

/** The options checked, with their defaults. */
export interface AuditSettings {
  readonly command: readonly string[];
  readonly api: AuditApi;
  readonly scenarios: readonly AuditScenarioDef[];
  readonly timeoutMs: number;
  readonly acceptedWhen: RegExp | undefined;
  readonly keyStdin: boolean;
  readonly env: Readonly<Record<string, string>>;
}

export const DEFAULT_AUDIT_TIMEOUT_MS = 10_000;
/** Longer than any one start of a program should take; a larger timeout is a slip. */
const MAX_TIMEOUT_MS = 10 * 60_000;

function acceptedWhenOf(value: RegExp | string | undefined): RegExp | undefined {
  if (value === undefined || value instanceof RegExp) return value;
  try {
    return new RegExp(value);
  } catch (error) {
    throw new UsageError(`acceptedWhen is not a regular expression: ${(error as Error).message}.`);
  }
}

function definedEnv(env: AuditOptions['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) if (value !== undefined) out[name] = value;
  return out;
}

export function auditSettings(options: AuditOptions): AuditSettings {
  const command = options.command;
  if (!Array.isArray(command) || command.length === 0 || typeof command[0] !== 'string' || command[0] === '') {
    throw new UsageError('command must name the program to audit and its arguments, e.g. ["python3", "app.py"].');
  }
  const api = options.api ?? '1.3';
  if (api !== '1.3' && api !== '1.2') throw new UsageError(`api must be 1.3 or 1.2; got "${String(api).slice(0, 20)}".`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_AUDIT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) throw new UsageError('timeoutMs must be above 0 and at most 10 minutes.');
  return {
    command,
    api,
    scenarios: pickScenarios(api, options.scenarios, options.skip),
    timeoutMs,
    acceptedWhen: acceptedWhenOf(options.acceptedWhen),
    keyStdin: options.keyStdin === true,
    env: definedEnv(options.env),
  };
}
