/**
 * Reading an answer the same way for both APIs (docs/design.md, "HTTP status of a failure"): the
 * status alone is never trusted; the body decides. In order:
 *
 * 1. 429, or a failed body whose message is a rate-limit text → RateLimitedAnswer (retried).
 * 2. 5xx → BadResponseError `server-error` (exit 4), quoting the server's message if any.
 * 3. A body that is not a JSON object — empty, the bare `KeyAuth_Invalid`, an HTML page, JSON
 *    cut short, other text — → BadResponseError with one sentence and an excerpt (exit 4).
 * 4. Otherwise the parsed object, whatever its `success` (the callers map `success:false`).
 *
 * The callers then check the object's shape for the operation (`checkAnswerShape`) before
 * anything acts on it: only a boolean `success` counts, and a success must carry the fields the
 * operation promises. A body that is neither is "not the expected answer" (exit 4) — never a
 * silent success, because scripts chain on exit 0 (`kactl licenses verify X && …`).
 */
import { BadResponseError, RateLimitedAnswer } from './api-errors.js';
import type { BadResponseKind } from './api-errors.js';
import { excerpt, htmlTitle } from './excerpt.js';
import type { TextRedactor } from './redact.js';
import { isQuotaMessage, isRateLimitMessage, parseRetryAfter, windowNamedBy } from './retry.js';
import type { TransportResponse } from './transport.js';

/** The bare text a KeyAuth server sends when no application matches `name` + `ownerid`. */
export const KEYAUTH_INVALID = 'KeyAuth_Invalid';

/** A parsed answer plus what a command may need besides the body. */
export interface Answer {
  body: Record<string, unknown>;
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The exact bytes received. */
  raw: Buffer;
  elapsedMs: number;
}

/** Parses `text` as a JSON object, or undefined. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The body's `message` when it is a string. */
export function messageOf(body: Record<string, unknown> | undefined): string | undefined {
  const message = body?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * True when the body reports a failure: `success:false`, or the hosted rate-limit shape
 * `status:false` (which has no `success`).
 */
export function isFailureBody(body: Record<string, unknown>): boolean {
  return body.success === false || (body.success === undefined && body.status === false);
}

/** What a successful answer must carry: a field and the JSON kind its value must be. */
export interface ExpectedField {
  name: string;
  kind: 'string' | 'array' | 'object' | 'present';
}

function kindOf(value: unknown): ExpectedField['kind'] | 'missing' | 'other' {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return 'other';
}

const KIND_WORDS: Record<ExpectedField['kind'], string> = { string: 'a string', array: 'a list', object: 'an object', present: 'a value' };

/**
 * Throws BadResponseError `unexpected-shape` unless `success` is a boolean (or the body is the
 * hosted `status:false` refusal) and, on success, every field in `expected` is there with its kind.
 * `what` names the operation in the sentence (`the answer to login`).
 */
export function checkAnswerShape(answer: { body: Record<string, unknown>; status: number }, what: string, expected: readonly ExpectedField[] = []): void {
  const { body } = answer;
  const success = body.success;
  let problem: string | undefined;
  if (typeof success !== 'boolean' && !(success === undefined && body.status === false)) {
    problem = success === undefined ? 'it has no "success" field' : `its "success" is ${JSON.stringify(success)}, not true or false`;
  } else if (success === true) {
    for (const field of expected) {
      const kind = kindOf(body[field.name]);
      if (kind === field.kind || (field.kind === 'present' && kind !== 'missing')) continue;
      problem = kind === 'missing' ? `it has no "${field.name}"` : `its "${field.name}" is not ${KIND_WORDS[field.kind]}`;
      break;
    }
  }
  if (problem === undefined) return;
  throw new BadResponseError(`The server's reply is not the expected answer to ${what}: ${problem}.`, {
    kind: 'unexpected-shape',
    status: answer.status,
    excerpt: '',
    body,
  });
}

/** `127.0.0.1:4000 answered 200 OK` — the start of most sentences below. */
function answered(res: TransportResponse): string {
  return `${new URL(res.url).host} answered ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}`;
}

/**
 * Throws RateLimitedAnswer when the answer refuses the request as rate-limited. The wait is the
 * server's Retry-After, else the window its text names (`windowMs`: the hosted window by default).
 */
export function checkRateLimit(res: TransportResponse, body: Record<string, unknown> | undefined, text: string, nowMs: number, windowMs?: number): void {
  const message = messageOf(body);
  const failed = body !== undefined && isFailureBody(body);
  const limitedByBody = failed && message !== undefined && isRateLimitMessage(message);
  // The daily key quota also comes as 429, but it is a business refusal, not a rate (retry.ts).
  const limitedByStatus = res.status === 429 && !(message !== undefined && isQuotaMessage(message));
  if (!limitedByBody && !limitedByStatus) return;
  const serverMessage = message ?? (excerpt(text) || `HTTP ${res.status}`);
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'], nowMs) ?? windowNamedBy(serverMessage, windowMs);
  throw new RateLimitedAnswer({
    status: res.status,
    serverMessage,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(body === undefined ? {} : { body }),
  });
}

/**
 * Steps 1–3 above; returns the parsed JSON object. `redact` scrubs excerpts (a server may echo
 * the URL, seller key included).
 */
export function readJsonAnswer(res: TransportResponse, options: { redact: TextRedactor; nowMs: number; rateWindowMs?: number }): Answer {
  const text = res.body.toString('utf8');
  const body = parseJsonObject(text);
  checkRateLimit(res, body, text, options.nowMs, options.rateWindowMs);
  const base = { status: res.status, headers: res.headers, raw: res.body, elapsedMs: res.elapsedMs };
  if (res.status >= 500) {
    const message = messageOf(body);
    const shown = message !== undefined ? excerpt(message, { max: 200, redact: options.redact }) : describeText(text, options.redact);
    // A success under an error status is no server's own failure: say what came, not "a fault: Logged in!".
    const said =
      body?.success === true
        ? `${answered(res)}, an error status, with a body that reads as a success${shown === '' ? '' : ` ("${shown}")`}; kactl does not act on an answer whose status says it failed.`
        : `${answered(res)} (a server fault): ${shown === '' ? 'no details' : `"${shown}"`}.`;
    throw bad(said, 'server-error', res, shown, body);
  }
  if (body !== undefined) return { ...base, body };
  throw notJson(res, text, options.redact);
}

function describeText(text: string, redact: TextRedactor): string {
  const title = /^\s*</.test(text) ? htmlTitle(text) : undefined;
  return excerpt(title ?? text, { redact });
}

function bad(message: string, kind: BadResponseKind, res: TransportResponse, shown: string, body?: Record<string, unknown>): BadResponseError {
  return new BadResponseError(message, { kind, status: res.status, excerpt: shown, ...(body ? { body } : {}) });
}

/** The BadResponseError for a body that is not a JSON object. */
export function notJson(res: TransportResponse, text: string, redact: TextRedactor): BadResponseError {
  const trimmed = text.trim();
  if (trimmed === '') return bad(`${answered(res)} with an empty body instead of JSON.`, 'empty', res, '');
  if (trimmed === KEYAUTH_INVALID) {
    return bad(`${answered(res)} with the bare text "${KEYAUTH_INVALID}" instead of JSON.`, 'keyauth-invalid', res, KEYAUTH_INVALID);
  }
  if (trimmed.startsWith('<')) {
    const shown = describeText(trimmed, redact);
    return bad(`${answered(res)} with an HTML page instead of JSON ("${shown}").`, 'html', res, shown);
  }
  const shown = excerpt(trimmed, { redact });
  if (/^[[{]/.test(trimmed) && endsEarly(trimmed)) {
    return bad(`${answered(res)} with JSON that is cut off after ${res.body.length} bytes ("${shown}").`, 'truncated-json', res, shown);
  }
  if (/^[[{"\d-]/.test(trimmed) && isJson(trimmed)) {
    return bad(`${answered(res)} with JSON that is not an object ("${shown}").`, 'not-object', res, shown);
  }
  return bad(`${answered(res)} with text that is not JSON ("${shown}").`, 'not-json', res, shown);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** True when the JSON text is a valid beginning that simply stops (unclosed strings or brackets). */
function endsEarly(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return inString || depth > 0;
}
