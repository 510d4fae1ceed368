/**
 * The login pipeline (docs/protocol/client-api.md §4.2), shared by `login`, `license` (existing user),
 * `loginEmail`, the web-loader token login, magic links and email codes.
 *
 * Checks, in order; the first that fails decides the answer:
 *  1. HWID shorter than the app's minHwid          → `HWID must be N or more characters, ...`
 *  2. no HWID while the app forces one             → `Force HWID is enabled, ...`
 *  3. no such user                                 → app msg `usernamenotfound`
 *  4. user banned                                  → app msg `userbanned` ({reason} filled in)
 *  5. HWID or IP blacklisted                       → app msg `hwidblacked`
 *  6. wrong password / web-loader token            → app msg `passmismatch`
 *  7. HWID lock: stored HWID does not contain it   → app msg `hwidmismatch`
 *  8. no active subscription (some paused)         → app msg `pausedsub`, else `noactivesubs`
 *  9. 2FA on and no code / a wrong code            → `2FA code required.` / `Invalid 2FA code.`
 *     (after 5 wrong codes in 15 minutes every code is refused for the rest of them: twofa-guesses.ts)
 * 10. a single-use proof (magic link, email code) already spent by a simultaneous request
 *
 * Step 5 is not in the 1.2 source's login (only its register checks the blacklist); the real
 * service's documentation and our issue tracker want blacklists enforced on every login path.
 * It sits before the password check so that a blacklisted machine cannot even learn whether a
 * password is right, and after the ban check so that a banned user is told why.
 * 2FA is enforced whichever API version the request came in on (1.2 ignoring the code would be
 * a bypass).
 *
 * Password hashing is slow, so it runs before the transaction; the transaction then re-reads
 * the user and refuses if anything the checks relied on changed meanwhile.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { isBlacklisted } from './blacklists.js';
import { realNow } from './clock.js';
import { appMessage } from './messages.js';
import { failure, success, type Failure, type Outcome } from './outcome.js';
import { verifyPasswordOrDummy } from './passwords.js';
import type { AppRow, SessionRow, UserRow } from './rows.js';
import { findLiveSession, validateSession } from './sessions.js';
import { verifyTotp } from './twofa.js';
import { clearWrong2faCodes, recordWrong2faCode, twofaLockedFor, twofaLockedMessage } from './twofa-guesses.js';
import { loginInfo, type UserInfo } from './user-info.js';
import { activeUserSubs, hasPausedSubs } from './user-subs.js';
import { findUser, getUserById, webLoaderToken } from './users.js';

/** How the user proves who they are. */
export type LoginCredential =
  /** The usual password (`pass`). A user with no password cannot log in with one. */
  | { readonly kind: 'password'; readonly pass: string | undefined }
  /** The web loader's token (docs/protocol/client-api.md §4.29) instead of the password. */
  | { readonly kind: 'token'; readonly token: string }
  /** Identity already proven by the caller (approved magic link, verified email code). */
  | { readonly kind: 'verified' };

export interface LoginInput {
  readonly username: string | undefined;
  readonly credential: LoginCredential;
  readonly hwid: string | undefined;
  /** 2FA code (`code`). */
  readonly code: string | undefined;
  /** Client IP: checked against the blacklist, stored on the user, echoed in `info`. */
  readonly ip: string;
  /** Apply the HWID length and forceHwid rules (steps 1–2). Default true. */
  readonly checkHwidRules?: boolean;
  /**
   * Spends a single-use proof of identity (an approved magic link, an email code). Runs inside
   * the login transaction after every check has passed and before anything is written, so the
   * proof is spent exactly when the login succeeds, and only once. Returns a refusal message
   * when the proof was spent meanwhile.
   */
  readonly consume?: () => string | undefined;
}

export type LoginFailure =
  | 'hwidtooshort'
  | 'hwidforced'
  | 'usernamenotfound'
  | 'userbanned'
  | 'hwidblacked'
  | 'passmismatch'
  | 'hwidmismatch'
  | 'pausedsub'
  | 'noactivesubs'
  | '2farequired'
  | '2fainvalid'
  | '2falocked'
  | 'credentialused'
  | 'sessionnotfound';

export interface LoginResult {
  /** The user as stored after the login. */
  readonly user: UserRow;
  readonly info: UserInfo;
  /** The app's `loggedInMsg`. */
  readonly message: string;
}

export const SESSION_NOT_FOUND_MESSAGE = 'Session not found. If you get this frequently, ask the developer to use the latest example code';

/** Steps 1–2, also used by `license` before it decides between login and register. */
export function checkHwidRules(app: AppRow, hwid: string | undefined): Failure<'hwidtooshort' | 'hwidforced'> | undefined {
  if (hwid !== undefined && hwid.length < app.minHwid) {
    return failure('hwidtooshort', `HWID must be ${app.minHwid} or more characters, change this in app settings.`);
  }
  if (hwid === undefined && app.forceHwid) {
    return failure('hwidforced', 'Force HWID is enabled, disable in app settings if you want to use blank HWIDs');
  }
  return undefined;
}

/**
 * Logs `input.username` in on `session`: runs the checks above, then in one transaction stores
 * the IP, lastlogin and a first HWID (when the lock is on), and validates the session for the
 * username.
 *
 * A user without a password (seller `adduser` or `resetpw` without one) is refused every
 * password, where the real service keeps the first one sent: that made the account belong to
 * whoever tried a login first (docs/design.md, "Accounts without a password").
 */
export async function loginUser(store: Store, app: AppRow, session: SessionRow, input: LoginInput, now: number): Promise<Outcome<LoginResult, LoginFailure>> {
  const msg = (key: Parameters<typeof appMessage>[2], reason?: string | null) => appMessage(store, app.id, key, reason);
  if (input.checkHwidRules !== false) {
    const refused = checkHwidRules(app, input.hwid);
    if (refused) return refused;
  }
  const early = input.username === undefined ? undefined : findUser(store, app.id, input.username);
  if (early === undefined) return failure('usernamenotfound', msg('usernamenotfound'));
  if (early.banned !== null) return failure('userbanned', msg('userbanned', early.banned));
  if (isBlacklisted(store, app.id, { hwid: input.hwid, ip: input.ip })) return failure('hwidblacked', msg('hwidblacked'));

  const credential = await checkCredential(early, input.credential);
  if (credential === 'mismatch') return failure('passmismatch', msg('passmismatch'));

  return store.tx(() => {
    // Re-read: a ban, rename, deletion or password change may have landed while we hashed.
    const user = getUserById(store, early.id);
    if (user === undefined || user.username !== early.username) return failure('usernamenotfound', msg('usernamenotfound'));
    if (user.banned !== null) return failure('userbanned', msg('userbanned', user.banned));
    if (isBlacklisted(store, app.id, { hwid: input.hwid, ip: input.ip })) return failure('hwidblacked', msg('hwidblacked'));
    if (user.passwordHash !== early.passwordHash) return failure('passmismatch', msg('passmismatch'));

    const storedHwid = user.hwid;
    let hwidToStore: string | null = null;
    if (app.hwidcheck && input.hwid !== undefined) {
      if (storedHwid === null) hwidToStore = input.hwid;
      else if (!storedHwid.includes(input.hwid)) return failure('hwidmismatch', msg('hwidmismatch'));
    }

    if (activeUserSubs(store, user.id, now).length === 0) {
      return hasPausedSubs(store, user.id) ? failure('pausedsub', msg('pausedsub')) : failure('noactivesubs', msg('noactivesubs'));
    }

    if (user.twofaEnabled && user.twofaSecret !== null) {
      if (input.code === undefined) return failure('2farequired', '2FA code required.');
      const lockedFor = twofaLockedFor(store, user.id, now);
      if (lockedFor !== undefined) return failure('2falocked', twofaLockedMessage(lockedFor));
      // The code comes from a real authenticator: check it against real time, not the sandbox clock.
      if (!verifyTotp(user.twofaSecret, input.code, realNow(store, now))) {
        recordWrong2faCode(store, user.id, now);
        return failure('2fainvalid', 'Invalid 2FA code.');
      }
      clearWrong2faCodes(store, user.id);
    }

    if (findLiveSession(store, app.id, session.id, now) === undefined) return failure('sessionnotfound', SESSION_NOT_FOUND_MESSAGE);
    const spent = input.consume?.();
    if (spent !== undefined) return failure('credentialused', spent);

    store.run('UPDATE users SET ip = ?, lastlogin = ?, hwid = COALESCE(hwid, ?) WHERE id = ?', input.ip, now, hwidToStore, user.id);
    validateSession(store, session.id, user.username);
    const updated = getUserById(store, user.id) ?? user;
    return success({ user: updated, info: loginInfo(store, updated, { ip: input.ip, hwid: storedHwid, now }), message: msg('loggedInMsg') });
  });
}

/** Whether the credential proves the user. */
async function checkCredential(user: UserRow, credential: LoginCredential): Promise<'ok' | 'mismatch'> {
  switch (credential.kind) {
    case 'verified':
      return 'ok';
    case 'token': {
      const expected = webLoaderToken(user);
      return expected !== null && sameText(expected, credential.token) ? 'ok' : 'mismatch';
    }
    case 'password':
      if (credential.pass === undefined) return 'mismatch';
      // No password: refused after the same scrypt, so the time does not tell the account has none.
      return (await verifyPasswordOrDummy(credential.pass, user.passwordHash)) ? 'ok' : 'mismatch';
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
