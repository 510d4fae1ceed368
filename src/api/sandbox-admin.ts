/**
 * Calls to a sandbox's admin routes (`/sandbox/outbox`, `/sandbox/clock`; src/server/README.md),
 * authenticated with the sandbox's admin token. The CLI (`kactl sandbox outbox|clock|advance`,
 * which finds the token in the sandbox profile) and the library's startSandbox (which has it
 * from the server it started) both go through here.
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
