/**
 * `GET /sandbox/requests` with `Authorization: Bearer <adminToken>`: the request inspector's
 * records (inspector/), oldest first, as `{"limit":<records kept>,"requests":[…]}`.
 *
 * Query: `type` and `api` (comma lists), `failed=1`, `user`, `since` (ms since the epoch or an
 * ISO date), `limit` (default 100, at most 10,000: the newest that match), `after` (an id: the
 * first `limit` after it instead).
 *
 * `follow=1` (or `Accept: text/event-stream`) answers with server-sent events instead: the
 * backlog asked for (`after`, `since` or `limit`; none without them), then each new matching
 * record as the sandbox serves it, `event: request` with `id:` the record's id (a reader that
 * reconnects sends `Last-Event-ID` and misses nothing still kept), a `: keep-alive` comment
 * every 15 s, and `event: end` when the sandbox stops, which ends the stream at once.
 * At most 32 readers follow at once (another is answered 503), and one that falls 1 MiB behind or
 * reads nothing for a minute is dropped (inspector/follower.ts). These reads are not recorded themselves.
 */
import type { IncomingMessage } from 'node:http';
import type { Params } from '../dispatch/params.js';
import { filterOf, flagOf, type RecordFilter } from '../inspector/filter.js';
import { recordJson } from '../inspector/derived.js';
import { MAX_FOLLOWERS, type RequestRecorder } from '../inspector/recorder.js';
import { adminUnauthorized, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { plainError } from './error-shapes.js';
import { asciiJson } from './json-encode.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 10_000;

export interface RequestsDeps {
  readonly recorder: RequestRecorder;
  readonly adminToken: string;
}

interface ListQuery {
  readonly filter: RecordFilter;
  readonly follow: boolean;
  readonly limit: number | undefined;
  readonly after: number | undefined;
}

export function serveRequests(deps: RequestsDeps, req: IncomingMessage, params: Params): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  const query = listQuery(req, params);
  if ('error' in query) return plainError(400, query.error);
  const { recorder } = deps;
  if (!query.follow) {
    const requests = recorder.list(query.filter, { limit: query.limit ?? DEFAULT_LIST_LIMIT, after: query.after });
    const body = asciiJson({ limit: recorder.limit, requests: requests.map(recordJson) });
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: Buffer.from(body) };
  }
  if (!recorder.mayFollow) return plainError(503, `${MAX_FOLLOWERS} readers follow the request log already, the most it serves at once; stop one, or read without follow`, { 'retry-after': '10' });
  const wantsBacklog = query.limit !== undefined || query.after !== undefined || query.filter.since !== undefined;
  const backlog = wantsBacklog ? recorder.list(query.filter, { limit: query.limit ?? MAX_LIST_LIMIT, after: query.after }) : [];
  const follower = recorder.follow(query.filter, backlog, req.socket);
  if (!recorder.recording) follower.end('the request inspector is off (sandbox start --log-limit 0)');
  return {
    status: 200,
    // The connection closes with the stream: a follower never holds a keep-alive socket open at shutdown.
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'close' },
    body: Buffer.alloc(0),
    stream: follower.stream,
  };
}

function listQuery(req: IncomingMessage, params: Params): ListQuery | { error: string } {
  const filter = filterOf(params);
  if ('error' in filter) return filter;
  const follow = flagOf(params, 'follow');
  if (typeof follow === 'object') return follow;
  const limit = wholeNumber(params.get('limit'), MAX_LIST_LIMIT);
  if (Number.isNaN(limit)) return { error: `limit must be a whole number from 0 to ${MAX_LIST_LIMIT}` };
  const lastEventId = req.headers['last-event-id'];
  const after = wholeNumber(params.get('after') ?? (typeof lastEventId === 'string' ? lastEventId : undefined), Number.MAX_SAFE_INTEGER);
  if (Number.isNaN(after)) return { error: 'after must be a record id (a whole number)' };
  const accept = req.headers.accept ?? '';
  return { filter, follow: follow || accept.includes('text/event-stream'), limit, after };
}

/** A whole number from 0 to `max`; undefined when absent; NaN when anything else. */
function wholeNumber(text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  return value <= max ? value : NaN;
}
