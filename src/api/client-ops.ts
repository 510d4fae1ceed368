/**
 * What the client-API caller needs to know per `type` (docs/protocol/client-api.md §4.30): which API version
 * a type goes to when the profile does not choose, and which types only read (and so may be
 * retried after a dropped connection). Anything not listed is treated as a change: a name the
 * table does not know (`kactl client call anything`) is never retried blindly.
 */
import type { ExpectedField } from './answer.js';
import type { Effect } from './seller-catalog/types.js';

/** Client API versions kactl speaks. */
export type ClientApiVersion = '1.3' | '1.2';

/**
 * Types the interface spec describes under 1.2 only (spec §4.2: chat and user variables), sent
 * there as POST form when the profile leaves `api` unset.
 */
export const SPEC_1_2_TYPES: ReadonlySet<string> = new Set(['chatget', 'chatsend', 'getvar', 'setvar']);

/**
 * Types that change nothing on the server, or nothing that a repeat would double. `login` and
 * `license` on a known user only refresh `lastlogin`; `license` on a fresh key registers, but a
 * repeat then just logs in, so no duplicate is possible either.
 */
export const READ_TYPES: ReadonlySet<string> = new Set([
  'check',
  'checkblacklist',
  'var',
  'getvar',
  'chatget',
  'file',
  'fetchOnline',
  'fetchStats',
  'login',
  'loginEmail',
  'license',
  'magicLinkCheck',
]);

/** Types whose answers can be large (hex-encoded file contents). */
export const LARGE_ANSWER_TYPES: ReadonlySet<string> = new Set(['file']);

/** The version a type goes to: the profile's choice, else 1.2 for the spec's 1.2 types, else 1.3. */
export function apiVersionFor(type: string, profileApi: ClientApiVersion | undefined): ClientApiVersion {
  if (profileApi !== undefined) return profileApi;
  return SPEC_1_2_TYPES.has(type) ? '1.2' : '1.3';
}

/** Whether a client call of `type` may be retried after a dropped connection. */
export function clientEffect(type: string): Effect {
  return READ_TYPES.has(type) ? 'read' : 'write';
}

const INFO: readonly ExpectedField[] = [{ name: 'info', kind: 'object' }];

/**
 * What a successful answer of each type must carry (docs/protocol/client-api.md §4.30). Checked
 * before anything is stored: a signed answer proves who wrote the body, not which request it
 * answers, so a `check` answer sent back to a `login` must not count as a login. (`init`'s
 * `sessionid` is checked where the session is stored. `magicLinkCheck` is left out: a pending
 * link may be a success without `info`, which magic-wait.ts reads as "not yet".)
 */
export const SUCCESS_FIELDS: Readonly<Record<string, readonly ExpectedField[]>> = {
  login: INFO,
  loginEmail: INFO,
  register: INFO,
  license: INFO,
  emailCodeVerify: INFO,
  var: [{ name: 'message', kind: 'string' }],
  getvar: [{ name: 'response', kind: 'present' }],
  chatget: [{ name: 'messages', kind: 'array' }],
  file: [{ name: 'contents', kind: 'string' }],
  fetchOnline: [{ name: 'users', kind: 'array' }],
  fetchStats: [{ name: 'appinfo', kind: 'object' }],
};

/**
 * Every client `type` some kactl command sends (`kactl client call TYPE` reaches any other). The
 * sandbox answers exactly these (src/server/client/index.ts; test/unit/docs/operations-table.test.ts
 * holds the two equal), and docs/operations.md may name no other.
 */
export const CLIENT_TYPES: ReadonlySet<string> = new Set([
  'init',
  'login',
  'loginEmail',
  'license',
  'register',
  'upgrade',
  'logout',
  'check',
  'checkblacklist',
  'ban',
  'var',
  'getvar',
  'setvar',
  'chatget',
  'chatsend',
  'webhook',
  'file',
  'log',
  'fetchOnline',
  'fetchStats',
  'changeUsername',
  'forgot',
  '2faenable',
  '2fadisable',
  'magicLinkSend',
  'magicLinkCheck',
  'emailCodeSend',
  'emailCodeVerify',
]);
