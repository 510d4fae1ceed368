/**
 * The success a fake server answers: what the sandbox sends a valid key, made up from the request
 * alone (nothing is read from the store or written to it). The faults that stand for a fake or
 * doctored server (`emulate`, `emulate-secret`, `other-app`, `tamper-success`) put it where the
 * genuine answer was a refusal, so a program that trusts `success` takes it, as such programs
 * take an emulator's answers: a refusal a naive program would also refuse proves nothing.
 *
 * Its bytes follow the encoder (http/client-encoder.ts): 1.3 `{"success","code",<fields>,"nonce",
 * "ownerid"}` as ASCII JSON, 1.2 `{"success",<fields>,"nonce"}` as PHP's json_encode. The login
 * answer's `info` is the shape of docs/protocol/client-api.md §5.1, with one subscription of the
 * seeded app's `default` at level 1 for 30 days: what an emulator hands any key.
 */
import { randomUUID } from 'node:crypto';
import { randomString } from '../domain/random.js';
import { CODE_SUCCESS } from '../http/client-encoder.js';
import { asciiJson, phpJson } from '../http/json-encode.js';

/** What the fault stage knows of the request whose answer is replaced. */
export interface RequestFacts {
  readonly api: '1.3' | '1.2';
  readonly type: string | undefined;
  /** A parameter as sent (sanitized), undefined when absent. */
  readonly param: (name: string) => string | undefined;
  readonly ip: string;
  /** Real time, ms since the epoch. */
  readonly nowMs: number;
}

/** The types whose success is a login with the user's `info`. */
const LOGIN_TYPES: ReadonlySet<string> = new Set(['login', 'license', 'register', 'loginEmail', 'emailCodeVerify', 'magicLinkCheck']);

/** What an emulator grants: 30 days of the seeded subscription. */
const GRANTED_SECONDS = 30 * 86_400;

/** The made-up user `info` of a login success: the key or name sent, one live subscription. */
function madeUpInfo(facts: RequestFacts): Record<string, unknown> {
  const now = Math.floor(facts.nowMs / 1000);
  const key = facts.param('key') ?? null;
  const username = facts.param('username') ?? facts.param('email') ?? key ?? 'user';
  return {
    username,
    subscriptions: [{ subscription: 'default', key, expiry: String(now + GRANTED_SECONDS), timeleft: GRANTED_SECONDS, level: '1' }],
    ip: facts.ip,
    hwid: facts.param('hwid') ?? null,
    createdate: String(now),
    lastlogin: String(now),
  };
}

/** The message and fields a success of this type carries. */
export function madeUpFields(facts: RequestFacts): Record<string, unknown> {
  const type = facts.type ?? '';
  if (LOGIN_TYPES.has(type)) return { message: 'Logged in!', info: madeUpInfo(facts) };
  if (type === 'init') {
    return {
      message: 'Initialized',
      sessionid: randomString(10),
      appinfo: { numUsers: 'N/A', numOnlineUsers: 'N/A', numKeys: 'N/A', version: facts.param('ver') ?? '1.0', customerPanelLink: '' },
      newSession: true,
    };
  }
  if (type === 'check') return facts.api === '1.3' ? { message: 'Session is validated.', role: 'not_checked' } : { message: 'Session is validated.' };
  return { message: 'Success' };
}

/** A success body as the encoder writes one, for `ownerid` (1.3 only; null when the request sent none). */
export function successBody(api: '1.3' | '1.2', fields: Readonly<Record<string, unknown>>, ownerid: string | null): Buffer {
  const { success: _success, code: _code, nonce: _nonce, ownerid: _ownerid, ...rest } = fields;
  if (api === '1.3') return Buffer.from(asciiJson({ success: true, code: CODE_SUCCESS, ...rest, nonce: randomUUID(), ownerid }), 'utf8');
  return Buffer.from(phpJson({ success: true, ...rest, nonce: randomString(32) }), 'utf8');
}

/** The body parsed, when it is a JSON object. */
export function parsedBody(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields of the success to send in place of `genuine`: a genuine success's own (so a real
 * session id goes on working), else made up for the request (a refusal, `KeyAuth_Invalid`).
 */
export function successFields(genuine: Buffer, facts: RequestFacts): Record<string, unknown> {
  const body = parsedBody(genuine);
  return body?.success === true ? body : madeUpFields(facts);
}
