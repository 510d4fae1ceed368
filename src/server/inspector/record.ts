/**
 * Making one record of a served request: what the stages learned (http/record-source.ts), with every
 * secret masked by the one masking rule (src/api/redact.ts, with a short prefix so two sessions
 * can be told apart). A value sent under a sensitive name (pass, key, sessionid, enckey, code,
 * token…) is masked where it was sent, and kept out of the rest of the record too: a password
 * that is also the username, a license key that names its user, a message that quotes it.
 * Client values are capped in length, as the log line caps them.
 */
import { isSensitiveName, maskValue, redactText } from '../../api/redact.js';
import type { Params } from '../dispatch/params.js';
import type { RecordApi, RequestRecord } from './records.js';

/** Longest client value kept, as the request log line keeps (http/log-line.ts). */
const MAX_VALUE_CHARS = 120;
/** Parameters kept per record; the rest are counted. */
const MAX_PARAMS = 40;
/** Longest parameter name kept. */
const MAX_NAME_CHARS = 60;
/** Secrets shorter than this are not searched for in free text (they would garble words). */
const MIN_SECRET_CHARS = 4;

/** An answer's outcome in words. Without one, the inspector takes `success` from the status. */
export interface Decision {
  readonly success: boolean;
  /** The answer's `message` (or its text body). */
  readonly message?: string | undefined;
  /** Why, from the rule that decided (Reply.reason). */
  readonly reason?: string | undefined;
  /** The end user the request was about, as it may be shown (a license user's key masked). */
  readonly user?: string | undefined;
  /** Values that must not appear anywhere in the record (a license key used as a username). */
  readonly hidden?: readonly string[] | undefined;
}

export interface RecordSource {
  readonly at: number;
  readonly api: RecordApi;
  readonly type: string | undefined;
  readonly method: string;
  /** With page tokens already masked (http/log-line.ts `maskPageToken`). */
  readonly path: string;
  readonly ip: string;
  readonly params: Params | undefined;
  readonly status: number;
  readonly decision: Decision | undefined;
  readonly durationMs: number;
  /** The fault that changed the answer, said as `#id kind arg` (http/answer-stage.ts). */
  readonly fault?: string | undefined;
}

export function makeRecord(id: number, source: RecordSource): RequestRecord {
  const { decision } = source;
  const secrets = sentSecrets(source.params, decision?.hidden);
  // Hidden before they are cut: a cut value could hold part of a secret that no longer matches.
  const shown = (text: string): string => cut(secrets.length === 0 ? text : hideSecrets(text, secrets));
  const hide = (text: string | undefined): string | null => (text === undefined ? null : secrets.length === 0 ? text : hideSecrets(text, secrets));
  return {
    id,
    at: source.at,
    api: source.api,
    type: source.type === undefined ? null : shown(source.type),
    method: cut(source.method),
    path: shown(source.path),
    ip: source.ip,
    user: hide(decision?.user),
    params: maskedParams(source.params, shown),
    status: source.status,
    success: decision?.success ?? source.status < 400,
    message: hide(decision?.message),
    reason: hide(decision?.reason),
    durationMs: Math.round(source.durationMs * 100) / 100,
    fault: source.fault ?? null,
  };
}

/** The values the request sent under sensitive names (long enough to search for), and the hidden ones. */
function sentSecrets(params: Params | undefined, hidden: readonly string[] | undefined): string[] {
  const secrets = hidden === undefined ? [] : [...hidden];
  if (params === undefined) return secrets;
  for (const name of params.names()) {
    if (!isSensitiveName(name)) continue;
    const raw = params.raw(name) ?? '';
    if (raw.length >= MIN_SECRET_CHARS) secrets.push(raw);
  }
  return secrets;
}

/** The parameters as sent: sensitive ones masked, the others through `shown` (secrets hidden, cut). */
function maskedParams(params: Params | undefined, shown: (text: string) => string): Record<string, string> {
  const masked: Record<string, string> = {};
  if (params === undefined) return masked;
  const names = params.names();
  for (const name of names.length > MAX_PARAMS ? names.slice(0, MAX_PARAMS) : names) {
    const raw = params.raw(name) ?? '';
    const value = isSensitiveName(name) ? maskValue(name, raw, { shortPrefix: true }) : shown(raw);
    const key = name.length > MAX_NAME_CHARS ? name.slice(0, MAX_NAME_CHARS) : name;
    // A parameter named __proto__ is kept as one, not taken as the object's prototype.
    if (key === '__proto__') Object.defineProperty(masked, key, { value, enumerable: true, writable: true, configurable: true });
    else masked[key] = value;
  }
  if (names.length > MAX_PARAMS) masked['…'] = `${names.length - MAX_PARAMS} more parameters`;
  return masked;
}

/** `text` with every secret of the request replaced by `***` (only searched for when present). */
function hideSecrets(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) if (text.includes(secret)) return redactText(text, secrets);
  return text;
}

function cut(value: string): string {
  return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…(${value.length} chars)` : value;
}
