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
import { whyBlacklisted } from './blacklists.js';
import { getClockOffset, realNow } from './clock.js';
import { appMessage } from './messages.js';
import { failure, success, type Because, type Failure, type Outcome } from './outcome.js';
import { verifyPasswordOrDummy } from './passwords.js';
import type { AppRow, SessionRow, UserRow } from './rows.js';
import { findLiveSession, validateSession } from './sessions.js';
import { clockNote, shownDuration, shownHwid, shownPair, shownSession, shownUser } from './shown.js';
import { verifyTotp } from './twofa.js';
import { clearWrong2faCodes, MAX_WRONG_2FA_CODES, recordWrong2faCode, twofaLockedFor, twofaLockedMessage, WRONG_2FA_WINDOW } from './twofa-guesses.js';
import { loginInfo, type UserInfo } from './user-info.js';
import { activeUserSubs, hasPausedSubs, lastSubExpiry } from './user-subs.js';
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
    return failure('hwidtooshort', `HWID must be ${app.minHwid} or more characters, change this in app settings.`, `HWID ${shownHwid(hwid)} is ${hwid.length} characters; the app wants at least ${app.minHwid}`);
  }
  if (hwid === undefined && app.forceHwid) {
    return failure('hwidforced', 'Force HWID is enabled, disable in app settings if you want to use blank HWIDs', 'no HWID was sent and the app forces one');
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
  const why = reasonsFor(store, app, input);
  if (input.checkHwidRules !== false) {
    const refused = checkHwidRules(app, input.hwid);
    if (refused) return refused;
  }
  const early = input.username === undefined ? undefined : findUser(store, app.id, input.username);
  if (early === undefined) return failure('usernamenotfound', msg('usernamenotfound'), why.notFound());
  if (early.banned !== null) return failure('userbanned', msg('userbanned', early.banned), why.about((name) => `${name} is banned: ${early.banned}`));
  const blacklisted = whyBlacklisted(store, app.id, { hwid: input.hwid, ip: input.ip });
  if (blacklisted !== undefined) return failure('hwidblacked', msg('hwidblacked'), why.about(() => blacklisted));

  const credential = await checkCredential(early, input.credential);
  if (credential === 'mismatch') return failure('passmismatch', msg('passmismatch'), why.about((name) => credentialReason(input.credential, early, name)));

  return store.tx(() => {
    // Re-read: a ban, rename, deletion or password change may have landed while we hashed.
    const user = getUserById(store, early.id);
    if (user === undefined || user.username !== early.username) return failure('usernamenotfound', msg('usernamenotfound'), why.about((name) => `${name} was renamed or deleted during the login`));
    if (user.banned !== null) return failure('userbanned', msg('userbanned', user.banned), why.about((name) => `${name} is banned: ${user.banned}`));
    const listed = whyBlacklisted(store, app.id, { hwid: input.hwid, ip: input.ip });
    if (listed !== undefined) return failure('hwidblacked', msg('hwidblacked'), why.about(() => listed));
    if (user.passwordHash !== early.passwordHash) return failure('passmismatch', msg('passmismatch'), why.about((name) => `the password of ${name} changed during the login`));

    const storedHwid = user.hwid;
    let hwidToStore: string | null = null;
    if (app.hwidcheck && input.hwid !== undefined) {
      if (storedHwid === null) hwidToStore = input.hwid;
      else if (!storedHwid.includes(input.hwid)) return failure('hwidmismatch', msg('hwidmismatch'), why.about((name) => hwidMismatch(name, storedHwid, input.hwid!)));
    }

    const refused = subscriptionRefusal(store, user, now, msg, why) ?? twofaRefusal(store, user, input.code, now, why);
    if (refused) return refused;

    if (findLiveSession(store, app.id, session.id, now) === undefined) {
      return failure('sessionnotfound', SESSION_NOT_FOUND_MESSAGE, why.about(() => `session ${shownSession(session.id)} ended during the login`));
    }
    const spent = input.consume?.();
    if (spent !== undefined) return failure('credentialused', spent, why.about(() => 'the magic link or email code was spent by a simultaneous request'));

    store.run('UPDATE users SET ip = ?, lastlogin = ?, hwid = COALESCE(hwid, ?) WHERE id = ?', input.ip, now, hwidToStore, user.id);
    validateSession(store, session.id, user.username);
    const updated = getUserById(store, user.id) ?? user;
    const info = loginInfo(store, updated, { ip: input.ip, hwid: storedHwid, now });
    return success({ user: updated, info, message: msg('loggedInMsg') }, why.about((name) => loggedIn(name, hwidToStore)));
  });
}

type Reasons = ReturnType<typeof reasonsFor>;

/** Reasons about the user the login names (a license user's name is its key: shown masked). */
function reasonsFor(store: Store, app: AppRow, input: LoginInput) {
  let shown: string | undefined;
  const name = (): string => (shown ??= input.username === undefined ? '(no username)' : shownUser(store, app.id, input.username));
  return {
    notFound: (): Because => (input.username === undefined ? { reason: 'no username was sent' } : { reason: `user ${name()} not found`, user: name() }),
    about: (reason: (name: string) => string): Because => ({ reason: reason(name()), user: name() }),
  };
}

function credentialReason(credential: LoginCredential, user: UserRow, name: string): string {
  if (credential.kind === 'token') return `wrong web-loader token for ${name}`;
  if (credential.kind === 'password' && credential.pass === undefined) return `no password was sent for ${name}`;
  return user.passwordHash === null ? `${name} has no password (made without one), so every password is refused` : `wrong password for ${name}`;
}

function hwidMismatch(name: string, stored: string, sent: string): string {
  const [locked, given] = shownPair(stored, sent);
  return `HWID mismatch: ${name} is locked to ${locked}, the request sent ${given}`;
}

function loggedIn(name: string, hwidLocked: string | null): string {
  return `${name} logged in${hwidLocked === null ? '' : `; HWID ${shownHwid(hwidLocked)} now locked to the account`}`;
}

/** Step 8: an active subscription. */
function subscriptionRefusal(store: Store, user: UserRow, now: number, msg: (key: 'pausedsub' | 'noactivesubs') => string, why: Reasons): Failure<LoginFailure> | undefined {
  if (activeUserSubs(store, user.id, now).length > 0) return undefined;
  if (hasPausedSubs(store, user.id)) return failure('pausedsub', msg('pausedsub'), why.about((name) => `the subscriptions of ${name} are paused`));
  const last = lastSubExpiry(store, user.id);
  const ended = last === undefined ? '' : ` (the last one ended ${shownDuration(now - last)} ago${clockNote(store)})`;
  return failure('noactivesubs', msg('noactivesubs'), why.about((name) => `${name} has no active subscription${ended}`));
}

/** Step 9: the 2FA code, checked on real time (it comes from a real authenticator). */
function twofaRefusal(store: Store, user: UserRow, code: string | undefined, now: number, why: Reasons): Failure<LoginFailure> | undefined {
  if (!user.twofaEnabled || user.twofaSecret === null) return undefined;
  if (code === undefined) return failure('2farequired', '2FA code required.', why.about((name) => `2FA is on for ${name} and no code was sent`));
  const lockedFor = twofaLockedFor(store, user.id, now);
  if (lockedFor !== undefined) {
    return failure('2falocked', twofaLockedMessage(lockedFor), why.about((name) => `2FA of ${name} is locked for ${shownDuration(lockedFor)}: ${MAX_WRONG_2FA_CODES} wrong codes within ${shownDuration(WRONG_2FA_WINDOW)}`));
  }
  if (!verifyTotp(user.twofaSecret, code, realNow(store, now))) {
    recordWrong2faCode(store, user.id, now);
    const note = getClockOffset(store) === 0 ? '' : ' (codes follow real time, not the sandbox clock)';
    return failure('2fainvalid', 'Invalid 2FA code.', why.about((name) => `wrong 2FA code for ${name}${note}`));
  }
  clearWrong2faCodes(store, user.id);
  return undefined;
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
