/**
 * The admin clock, for testers and tests (`kactl sandbox clock`, `kactl sandbox advance 16m`):
 *
 *   GET  /sandbox/clock                      → {"now":<domain unix seconds>,"offset":<seconds>}
 *   POST /sandbox/clock  advance=<seconds>   → the same, after moving the domain clock forward
 *
 * Both want `Authorization: Bearer <adminToken>`. The POST body is a form (`advance=960`) or
 * JSON (`{"advance":960}`); `advance` may also come in the query string. Only the domain clock
 * moves (domain/clock.ts); signature timestamps stay real time.
 */
import type { IncomingMessage } from 'node:http';
import { advanceClock, domainNow, getClockOffset, MAX_CLOCK_ADVANCE } from '../domain/clock.js';
import type { Store } from '../store/store.js';
import { adminUnauthorized, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';
import type { RequestInput } from './request-input.js';

export const CLOCK_MESSAGES = {
  missingAdvance: 'Send advance=<seconds> (a form field, a JSON property or a query parameter)',
  badAdvance: `advance must be a whole number of seconds from 0 to ${MAX_CLOCK_ADVANCE}; the clock never goes back`,
  badJson: 'The JSON body is not an object',
} as const;

export interface ClockDeps {
  readonly store: Store;
  readonly adminToken: string;
  /** Real time, milliseconds since the epoch. */
  readonly clock: () => number;
}

export function serveClock(req: IncomingMessage, input: RequestInput, deps: ClockDeps): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  if (req.method === 'POST') {
    const wanted = advanceParam(input);
    if (typeof wanted === 'object') return badRequest(wanted.error);
    const seconds = /^\d{1,16}$/.test(wanted) ? Number(wanted) : NaN;
    if (!Number.isSafeInteger(seconds) || seconds > MAX_CLOCK_ADVANCE) return badRequest(CLOCK_MESSAGES.badAdvance);
    advanceClock(deps.store, seconds);
  }
  const answer = { now: domainNow(deps.store, deps.clock()), offset: getClockOffset(deps.store) };
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: Buffer.from(asciiJson(answer)) };
}

/** `advance` as text from the JSON body, the form body or the query; or why it is missing. */
function advanceParam(input: RequestInput): string | { error: string } {
  if (input.body !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.body);
    } catch {
      return { error: CLOCK_MESSAGES.badJson };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: CLOCK_MESSAGES.badJson };
    const value = (parsed as Record<string, unknown>)['advance'];
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') return value.trim();
    if (value !== undefined) return { error: CLOCK_MESSAGES.badAdvance };
  }
  return input.params.get('advance') ?? { error: CLOCK_MESSAGES.missingAdvance };
}

function badRequest(message: string): EncodedResponse {
  return { status: 400, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson({ success: false, message })) };
}
