/**
 * Redeeming a license into a new account: `register` (docs/protocol/client-api.md §4.4) and `license`
 * (§4.5: registers on first use, logs in after).
 *
 * Concurrency: every check and every write happens inside one transaction, and better-sqlite3
 * runs a transaction to completion before any other request's code runs. Twenty simultaneous
 * registers with one unused key therefore see the key one after the other: the first marks it
 * used, the nineteen others find it used. Only the slow password hashing runs before the
 * transaction (outside it nothing is written).
 */
import type { Store } from '../store/store.js';
import { whyBlacklisted } from './blacklists.js';
import { findLicense, markLicenseUsed } from './licenses.js';
import { checkHwidRules, loginUser, SESSION_NOT_FOUND_MESSAGE, type LoginFailure, type LoginResult } from './login.js';
import { appMessage } from './messages.js';
import { failure, success, type Failure, type Outcome } from './outcome.js';
import { hashPassword } from './passwords.js';
import { newPasswordProblem } from './password-rules.js';
import type { AppRow, LicenseRow, SessionRow } from './rows.js';
import { findLiveSession, validateSession } from './sessions.js';
import { shownKey, shownSession, shownUser } from './shown.js';
import { subscriptionsAtLevel } from './subscriptions.js';
import { registerInfo } from './user-info.js';
import { grantSubsForLevel } from './user-subs.js';
import { createUser, findUser } from './users.js';

/** Longest username and key the real server accepts. */
export const MAX_USERNAME_LENGTH = 70;
export const MAX_KEY_LENGTH = 70;

export interface RegisterInput {
  readonly username: string | undefined;
  readonly pass: string | undefined;
  readonly key: string | undefined;
  /** Plain address; stored only as its SHA-1. */
  readonly email?: string | undefined;
  /** Stored as the user's HWID; register applies no HWID length rules (as the source). */
  readonly hwid?: string | undefined;
  readonly ip: string;
}

export type RegisterFailure =
  | 'usernametoolong'
  | 'keytoolong'
  | 'untooshort'
  | 'passwordmissing'
  | 'passwordtoolong'
  | 'pwleaked'
  | 'usernametaken'
  | 'keynotfound'
  | 'keyused'
  | 'keybanned'
  | 'keynoduration'
  | 'hwidblacked'
  | 'nosublevel'
  | 'sessionnotfound';

/** Sandbox-only: a key of no duration (made before the seller API refused them) grants nothing. */
export const NO_DURATION_MESSAGE = 'This license has no duration, ask the seller for a working one.';

/** A license that may not be redeemed: used (or paused), or banned. */
export function licenseRefusal(store: Store, app: AppRow, license: LicenseRow | undefined, key?: string): Failure<'keynotfound' | 'keyused' | 'keybanned'> | undefined {
  if (license === undefined) return failure('keynotfound', appMessage(store, app.id, 'keynotfound'), key === undefined ? 'no license key was sent' : `license ${shownKey(key)} not found`);
  if (license.status === 'Banned' || license.banned !== null) {
    return failure('keybanned', appMessage(store, app.id, 'keybanned', license.banned), `license ${shownKey(license.key)} is banned${license.banned ? `: ${license.banned}` : ''}`);
  }
  if (license.status !== 'Not Used') return failure('keyused', appMessage(store, app.id, 'keyused'), usedReason(store, app, license));
  return undefined;
}

function usedReason(store: Store, app: AppRow, license: LicenseRow): string {
  if (license.usedby === null) return `license ${shownKey(license.key)} is ${license.status.toLowerCase()}`;
  return `license already used by ${shownUser(store, app.id, license.usedby)}`;
}

const PASSWORD_REASONS = {
  passwordmissing: 'no password was sent',
  passwordtoolong: 'the password is over 256 characters',
  pwleaked: 'the password is on the list of leaked passwords (the app blocks them)',
} as const;

/** Every register check in §4.4 order; undefined when the registration may go ahead. */
function registerRefusal(store: Store, app: AppRow, input: RegisterInput): Failure<RegisterFailure> | undefined {
  const msg = (key: Parameters<typeof appMessage>[2]) => appMessage(store, app.id, key);
  const username = input.username ?? '';
  if (username.length > MAX_USERNAME_LENGTH) return failure('usernametoolong', 'Username must be shorter than 70 characters', `the username is ${username.length} characters; at most ${MAX_USERNAME_LENGTH}`);
  if ((input.key ?? '').length > MAX_KEY_LENGTH) return failure('keytoolong', 'Key must be shorter than 70 characters', `the key is ${(input.key ?? '').length} characters; at most ${MAX_KEY_LENGTH}`);
  if (username.length < Math.max(1, app.minUsernameLength)) {
    return failure('untooshort', msg('unTooShort'), username === '' ? 'no username was sent' : `the username is ${username.length} characters; the app wants at least ${app.minUsernameLength}`);
  }
  const passwordProblem = newPasswordProblem(store, app, input.pass);
  if (passwordProblem !== undefined) return failure(passwordProblem.code, passwordProblem.message, PASSWORD_REASONS[passwordProblem.code]);
  if (findUser(store, app.id, username) !== undefined) return failure('usernametaken', msg('usernametaken'), `username ${shownUser(store, app.id, username)} is taken`);
  const license = input.key === undefined ? undefined : findLicense(store, app.id, input.key);
  const refused = licenseRefusal(store, app, license, input.key);
  if (refused) return refused;
  // Registering on a key of no duration would make a user with no subscription and burn the key.
  if (license !== undefined && !(license.expires > 0)) return failure('keynoduration', NO_DURATION_MESSAGE, `license ${shownKey(license.key)} has no duration`);
  const blacklisted = whyBlacklisted(store, app.id, { hwid: input.hwid, ip: input.ip });
  if (blacklisted !== undefined) return failure('hwidblacked', msg('hwidblacked'), blacklisted);
  if (license !== undefined && subscriptionsAtLevel(store, app.id, license.level).length === 0) {
    return failure('nosublevel', msg('nosublevel'), `no subscription of the app is at level ${license.level}, the license's level`);
  }
  return undefined;
}

/**
 * Registers a new user with an unused license and logs them in on `session`: the key becomes
 * used, the user gets one subscription per definition at the key's level (expiring now + the
 * key's duration), the session is validated. Success carries the register variant of `info`.
 */
export async function registerWithKey(store: Store, app: AppRow, session: SessionRow, input: RegisterInput, now: number): Promise<Outcome<LoginResult, RegisterFailure>> {
  // Fail fast before the costly hash; the transaction below repeats every check.
  const early = registerRefusal(store, app, input);
  if (early) return early;
  const passwordHash = await hashPassword(input.pass ?? '');

  return store.tx(() => {
    const refused = registerRefusal(store, app, input);
    if (refused) return refused;
    if (findLiveSession(store, app.id, session.id, now) === undefined) {
      return failure('sessionnotfound', SESSION_NOT_FOUND_MESSAGE, `session ${shownSession(session.id)} ended during the registration`);
    }
    const license = findLicense(store, app.id, input.key ?? '');
    const username = input.username ?? '';
    if (license === undefined) throw new Error('License vanished inside the register transaction');

    markLicenseUsed(store, license.id, username, now);
    const user = createUser(store, app.id, {
      username,
      passwordHash,
      email: input.email,
      hwid: input.hwid,
      ip: input.ip,
      owner: license.genby,
      loggedIn: true,
    }, now);
    grantSubsForLevel(store, app.id, user.id, license.level, license.expires, license.key, now);
    validateSession(store, session.id, username);
    const shown = shownUser(store, app.id, username);
    return success(
      { user, info: registerInfo(store, user, { ip: input.ip, hwid: input.hwid ?? null, now }), message: appMessage(store, app.id, 'loggedInMsg') },
      { reason: `${shown} registered with license ${shownKey(license.key)} (level ${license.level}) and logged in`, user: shown },
    );
  });
}

export interface LicenseLoginInput {
  readonly key: string | undefined;
  readonly hwid: string | undefined;
  /** 2FA code. */
  readonly code: string | undefined;
  readonly ip: string;
}

export type LicenseLoginFailure = LoginFailure | RegisterFailure;

/**
 * `license` (§4.5): the key is both username and password. First use registers a user named
 * after the key; every later use logs that user in. A banned key is refused on both paths
 * (a license ban that still let its user log in was a reported problem, docs/contracts.md, "What sellers asked for").
 */
export async function licenseLogin(store: Store, app: AppRow, session: SessionRow, input: LicenseLoginInput, now: number): Promise<Outcome<LoginResult, LicenseLoginFailure>> {
  const refused = checkHwidRules(app, input.hwid);
  if (refused) return refused;
  const key = input.key;
  if (key === undefined) return failure('keynotfound', appMessage(store, app.id, 'keynotfound'), 'no license key was sent');
  if (key.length > MAX_KEY_LENGTH) return failure('keytoolong', 'Key must be shorter than 70 characters', `the key is ${key.length} characters; at most ${MAX_KEY_LENGTH}`);
  const license = findLicense(store, app.id, key);
  if (license !== undefined && (license.status === 'Banned' || license.banned !== null)) {
    return failure('keybanned', appMessage(store, app.id, 'keybanned', license.banned), `license ${shownKey(key)} is banned${license.banned ? `: ${license.banned}` : ''}`);
  }

  const login = () => loginUser(store, app, session, { username: key, credential: { kind: 'password', pass: key }, hwid: input.hwid, code: input.code, ip: input.ip, checkHwidRules: false }, now);
  if (findUser(store, app.id, key) !== undefined) return login();
  const registered = await registerWithKey(store, app, session, { username: key, pass: key, key, hwid: input.hwid, ip: input.ip }, now);
  // Another request registered this key's user while we were hashing: log in as it instead.
  if (!registered.ok && registered.code === 'usernametaken') return login();
  return registered;
}
