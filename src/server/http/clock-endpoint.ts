/**
 * The admin clock, for testers and tests (`kactl sandbox clock`, `kactl sandbox advance 16m`):
 *
 *   GET  /sandbox/clock                       → {"now":<domain unix seconds>,"offset":<seconds>}
 *   POST /sandbox/clock  advance=<±seconds>   → the same, after moving the domain clock
 *   POST /sandbox/clock  offset=<seconds>     → the same, after setting the offset (0: real time)
 *
 * Both want `Authorization: Bearer <adminToken>`. The POST body is a form (`advance=960`) or
 * JSON (`{"advance":960}`); the field may also come in the query string. Only the domain clock
 * moves (domain/clock.ts says what moving it back does); signature timestamps and TOTP codes
 * stay on real time.
 */
import type { IncomingMessage } from 'node:http';
import { advanceClock, domainNow, getClockOffset, isValidOffset, MAX_CLOCK_OFFSET, setClockOffset } from '../domain/clock.js';
import type { Store } from '../store/store.js';
import { adminUnauthorized, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';
import type { RequestInput } from './request-input.js';

export const CLOCK_MESSAGES = {
  missingAdvance: 'Send advance=<seconds> or offset=<seconds> (a form field, a JSON property or a query parameter)',
  badAdvance: `advance and offset are whole numbers of seconds, and the offset stays within ±${MAX_CLOCK_OFFSET} (100 years)`,
  badJson: 'The JSON body is not an object',
} as const;

export interface ClockDeps {
  readonly store: Store;
  readonly adminToken: string;
  /** Real time, milliseconds since the epoch. */
  readonly clock: () => number;
}

type ClockChange = { readonly field: 'advance' | 'offset'; readonly value: string };

export function serveClock(deps: ClockDeps, req: IncomingMessage, input: RequestInput): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  if (req.method === 'POST') {
    const change = changeParam(input);
    if ('error' in change) return badRequest(change.error);
    const seconds = /^[-+]?\d{1,16}$/.test(change.value) ? Number(change.value) : NaN;
    const offset = change.field === 'offset' ? seconds : getClockOffset(deps.store) + seconds;
    if (!Number.isSafeInteger(seconds) || !isValidOffset(offset)) return badRequest(CLOCK_MESSAGES.badAdvance);
    if (change.field === 'offset') setClockOffset(deps.store, offset);
    else advanceClock(deps.store, seconds);
  }
  const answer = { now: domainNow(deps.store, deps.clock()), offset: getClockOffset(deps.store) };
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: Buffer.from(asciiJson(answer)) };
}

/** `advance` or `offset` as text from the JSON body, the form body or the query; or why it is missing. */
function changeParam(input: RequestInput): ClockChange | { error: string } {
  if (input.body !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.body);
    } catch {
      return { error: CLOCK_MESSAGES.badJson };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: CLOCK_MESSAGES.badJson };
    for (const field of ['offset', 'advance'] as const) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'number') return { field, value: String(value) };
      if (typeof value === 'string') return { field, value: value.trim() };
      if (value !== undefined) return { error: CLOCK_MESSAGES.badAdvance };
    }
  }
  for (const field of ['offset', 'advance'] as const) {
    const value = input.params.get(field);
    if (value !== undefined) return { field, value: value.trim() };
  }
  return { error: CLOCK_MESSAGES.missingAdvance };
}

function badRequest(message: string): EncodedResponse {
  return { status: 400, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson({ success: false, message })) };
}
