/**
 * Calls to a sandbox's admin routes (`/sandbox/outbox`, `/sandbox/clock`, `/sandbox/requests`;
 * src/server/README.md), authenticated with the sandbox's admin token. The CLI
 * (`kactl sandbox outbox|clock|advance|logs`, which finds the token in the sandbox profile) and
 * the library's startSandbox (which has it from the server it started) both go through here.
 */
import { AuthError, NetworkError, UsageError } from './errors.js';
import type { Transport } from './transport.js';

/** Where a sandbox's admin routes are, and the token that opens them. */
export interface AdminTarget {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly transport: Transport;
}

export interface AdminRequest {
  readonly method: 'GET' | 'POST';
  /** Path with its query, e.g. `/sandbox/outbox?after=3`. */
  readonly path: string;
  readonly form?: Readonly<Record<string, string>>;
}

/** The sandbox's domain clock: Unix seconds, and how far it runs ahead of real time. */
export interface SandboxClockState {
  readonly now: number;
  readonly offset: number;
}

/** One mail the sandbox would have sent (a magic link, a one-time code, a password reset). */
export interface OutboxMessage {
  readonly id: number;
  /** Unix seconds, on the domain clock. */
  readonly createdAt: number;
  /** `magic-link`, `email-code`, `password-reset`, … */
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The link the mail asks to open, if any. */
  readonly link: string | null;
  /** Machine-readable extras (`{ code, token }`). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly appId: number | null;
}

/** Which outbox messages to list: after an id, to an address, of a kind. */
export interface OutboxFilter {
  readonly after?: number;
  readonly to?: string;
  readonly kind?: string;
}

/** The part of the sandbox a request was for; `other` is a path the sandbox does not serve. */
export type RequestApi = '1.3' | '1.2' | 'seller' | 'page' | 'admin' | 'other';

/**
 * How the answer reached the client: `answer`, whole; `reset`, the connection closed before any
 * byte; `truncated`, part of the body, then the connection closed; `abandoned`, the client (or
 * the sandbox's shutdown) closed the connection while a `delay` fault held the answer back.
 */
export type RequestDelivery = 'answer' | 'reset' | 'truncated' | 'abandoned';

/**
 * One request the sandbox served, as its request inspector recorded it (`kactl sandbox logs`
 * shows the same records): what the client saw, faults included. Secrets (passwords, keys,
 * session ids, codes, tokens, URL queries) are masked.
 */
export interface LoggedRequest {
  /** Increasing with each request; `after` in a filter takes one. */
  readonly id: number;
  /** When it arrived (real time, not the domain clock), ISO 8601. */
  readonly time: string;
  readonly api: RequestApi;
  /** The API type (`login`, `add`…); a page's path pattern; the admin route's name; null when none was given. */
  readonly type: string | null;
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly ip: string;
  /** The end user the request was about, when it names one. */
  readonly user: string | null;
  /** Its parameters (query and form), secrets masked. */
  readonly params: Readonly<Record<string, string>>;
  /** The HTTP status the client got; 0 when none reached it (`delivery` `reset` or `abandoned`). */
  readonly status: number;
  /** The answer's `success` as the client got it; false when no whole answer reached it; null for an answer without one (a page, a file). */
  readonly success: boolean | null;
  /** The answer's `message` as the client got it, verbatim; null when none reached it. */
  readonly message: string | null;
  /**
   * Why the sandbox answered so ("wrong password for alice", "HWID mismatch: …"); for a faulted
   * answer, what the fault did and the sandbox's own answer. Null when the message says it all.
   */
  readonly reason: string | null;
  readonly durationMs: number;
  readonly delivery: RequestDelivery;
  /** The fault that changed the answer (`#2 forge-signature`, `kactl sandbox fault`); null for a genuine answer. */
  readonly fault: string | null;
  /** That fault's id and kind (`forge-signature`); null for a genuine answer. */
  readonly faultId: number | null;
  readonly faultKind: string | null;
  /** Sent by kactl on its own account (client init's check of a stored session), not by the program under test. */
  readonly probe: boolean;
  /** An empty list (`No keys found`, HTTP 406 in the hosted mode): `success:false` on the wire, not a refusal. */
  readonly empty: boolean;
  /**
   * A refusal the tester's requests met: `success:false`, an HTTP status of 400 or more, or no
   * whole answer; never an empty list or a probe. What `failed: true` selects.
   */
  readonly failed: boolean;
}

/** Which recorded requests to read (all given must hold). */
export interface RequestLogFilter {
  /** Only these types (`'login'`, or `['login', 'license']`). */
  readonly type?: string | readonly string[];
  /** Only these APIs. */
  readonly api?: RequestApi | readonly RequestApi[];
  /** Only refusals (`failed` records): `success:false`, an HTTP error or no whole answer; not empty lists nor kactl's probes. */
  readonly failed?: boolean;
  /** Only requests about this end user. */
  readonly user?: string;
  /** Only requests that arrived at or after this time (a Date, or ms since the epoch). */
  readonly since?: Date | number;
  /** The newest this many that match (default 100, at most 10,000); with `after`, the first this many after it. */
  readonly limit?: number;
  /** Only requests after this record id. */
  readonly after?: number;
}

/** What the sandbox keeps (`limit`: the newest that many requests; 0 when it records nothing) and the records asked for, oldest first. */
export interface RequestLog {
  readonly limit: number;
  readonly requests: LoggedRequest[];
}

/** One admin request; the parsed JSON answer, or a typed error. */
export async function sandboxAdminRequest(target: AdminTarget, request: AdminRequest): Promise<unknown> {
  const { baseUrl, adminToken } = target;
  const response = await target.transport.request({
    method: request.method,
    url: new URL(request.path, `${baseUrl}/`),
    headers: { authorization: `Bearer ${adminToken}` },
    ...(request.form ? { form: request.form } : {}),
    secrets: [adminToken],
  });
  if (response.status === 401 || response.status === 403) throw new AuthError('The sandbox refused the admin token.');
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new NetworkError(`${baseUrl} answered ${request.path} with something that is not JSON (HTTP ${response.status}); is it a kactl sandbox?`);
  }
  const message = (body as { message?: unknown } | null)?.message;
  // A 400 is the sandbox refusing what we asked (an offset past 100 years): the input's fault.
  if (response.status === 400 && typeof message === 'string') throw new UsageError(`The sandbox refused ${request.path}: ${message}.`);
  if (response.status !== 200) {
    throw new NetworkError(`The sandbox answered ${request.path} with HTTP ${response.status}${typeof message === 'string' ? `: ${message}` : ''}.`);
  }
  return body;
}

/** The clock of an answer of `/sandbox/clock`, or a NetworkError when it has another shape. */
export function readClock(body: unknown): SandboxClockState {
  const { now, offset } = (body ?? {}) as Partial<Record<string, unknown>>;
  if (typeof now !== 'number' || typeof offset !== 'number') throw new NetworkError('The sandbox answered the clock request with an unexpected shape.');
  return { now, offset };
}

/** GET /sandbox/clock. */
export async function getSandboxClock(target: AdminTarget): Promise<SandboxClockState> {
  return readClock(await sandboxAdminRequest(target, { method: 'GET', path: '/sandbox/clock' }));
}

/** POST /sandbox/clock: `advance` moves the domain clock by seconds, `offset` sets it (0: real time). */
export async function changeSandboxClock(target: AdminTarget, change: { readonly advance: number } | { readonly offset: number }): Promise<SandboxClockState> {
  const form: Record<string, string> = 'advance' in change ? { advance: String(change.advance) } : { offset: String(change.offset) };
  return readClock(await sandboxAdminRequest(target, { method: 'POST', path: '/sandbox/clock', form }));
}

/** The outbox query string of a filter (empty for none). */
export function outboxPath(filter: OutboxFilter = {}): string {
  const query = new URLSearchParams();
  if (filter.after !== undefined) query.set('after', String(filter.after));
  if (filter.to !== undefined) query.set('to', filter.to);
  if (filter.kind !== undefined) query.set('kind', filter.kind);
  return `/sandbox/outbox${query.size > 0 ? `?${query.toString()}` : ''}`;
}

/** GET /sandbox/outbox: the messages, oldest first. */
export async function listSandboxOutbox(target: AdminTarget, filter: OutboxFilter = {}): Promise<OutboxMessage[]> {
  const body = await sandboxAdminRequest(target, { method: 'GET', path: outboxPath(filter) });
  const messages = Array.isArray(body) ? body : (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) throw new NetworkError('The sandbox answered the outbox request with an unexpected shape.');
  return messages as OutboxMessage[];
}

/** `one` or `[one, two]` as the route's comma list. */
export function commaList(value: string | readonly string[]): string {
  return typeof value === 'string' ? value : value.join(',');
}

/** The requests route's path and query for a filter; `follow` asks for server-sent events. */
export function requestsPath(filter: RequestLogFilter = {}, follow = false): string {
  const query = new URLSearchParams();
  if (filter.type !== undefined) query.set('type', commaList(filter.type));
  if (filter.api !== undefined) query.set('api', commaList(filter.api));
  if (filter.failed === true) query.set('failed', '1');
  if (filter.user !== undefined) query.set('user', filter.user);
  if (filter.since !== undefined) {
    const ms = typeof filter.since === 'number' ? filter.since : filter.since.getTime();
    if (!Number.isFinite(ms)) throw new UsageError('since must be a valid date or a number of milliseconds since the epoch.');
    query.set('since', String(Math.max(0, Math.floor(ms))));
  }
  if (filter.limit !== undefined) query.set('limit', String(filter.limit));
  if (filter.after !== undefined) query.set('after', String(filter.after));
  if (follow) query.set('follow', '1');
  return `/sandbox/requests${query.size > 0 ? `?${query.toString()}` : ''}`;
}

/** GET /sandbox/requests: the request inspector's records that match, oldest first. */
export async function listSandboxRequests(target: AdminTarget, filter: RequestLogFilter = {}): Promise<RequestLog> {
  const body = await sandboxAdminRequest(target, { method: 'GET', path: requestsPath(filter) });
  const { limit, requests } = (body ?? {}) as { limit?: unknown; requests?: unknown };
  if (!Array.isArray(requests) || typeof limit !== 'number') throw new NetworkError('The sandbox answered the requests route with an unexpected shape.');
  return { limit, requests: requests as LoggedRequest[] };
}

function messageOf(body: Buffer): string | undefined {
  try {
    const message = (JSON.parse(body.toString('utf8')) as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A GET of an admin route answered with server-sent events, read as they arrive: the body's
 * pieces. It fails when nothing arrives for `idleMs`. A refused token is an AuthError, a
 * refused query a UsageError, any other answer a NetworkError.
 */
export async function sandboxAdminStream(target: AdminTarget, request: { readonly path: string; readonly idleMs: number }): Promise<AsyncIterable<Buffer>> {
  const { baseUrl, adminToken } = target;
  const answer = await target.transport.stream({
    url: new URL(request.path, `${baseUrl}/`),
    headers: { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' },
    secrets: [adminToken],
    idleMs: request.idleMs,
  });
  if (answer.status === 200 && (answer.headers['content-type'] ?? '').startsWith('text/event-stream')) return answer.body;
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  if (answer.status === 401 || answer.status === 403) throw new AuthError('The sandbox refused the admin token.');
  const message = messageOf(Buffer.concat(chunks));
  if (answer.status === 400 && message !== undefined) throw new UsageError(`The sandbox refused ${request.path}: ${message}.`);
  throw new NetworkError(`The sandbox answered ${request.path} with HTTP ${answer.status}${message === undefined ? '; is it a kactl sandbox new enough to record requests?' : `: ${message}`}.`);
}
