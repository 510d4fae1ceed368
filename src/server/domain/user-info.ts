/**
 * The `info` object of a successful login (docs/protocol/client-api.md §5.1), field order as the real server.
 * Two variants, as observed: a login lists `level` in each subscription and the HWID stored
 * before this login; a register lists no `level` and the HWID just sent.
 */
import type { Store } from '../store/store.js';
import type { UserRow } from './rows.js';

export interface SubscriptionInfo {
  readonly subscription: string;
  readonly key: string | null;
  /** Unix seconds, as a string. */
  readonly expiry: string;
  /** Seconds left, a number. */
  readonly timeleft: number;
  /** Login variant only: the level of that subscription name (null if the definition is gone). */
  readonly level?: string | null;
}

export interface UserInfo {
  readonly username: string;
  readonly subscriptions: SubscriptionInfo[];
  readonly ip: string | null;
  readonly hwid: string | null;
  readonly createdate: string;
  readonly lastlogin: string;
}

export interface InfoInput {
  readonly ip: string;
  /** Login: the HWID stored before this login (null on the login that stores the first one). Register: the HWID sent. */
  readonly hwid: string | null;
  readonly now: number;
}

interface ActiveSubWithLevel {
  readonly subscription: string;
  readonly key: string | null;
  readonly expiry: number;
  readonly level: string | null;
}

function activeSubsWithLevel(store: Store, user: UserRow, now: number): ActiveSubWithLevel[] {
  return store.all<ActiveSubWithLevel>(
    `SELECT us.subscription, us.key, us.expiry, d.level FROM user_subs us
       LEFT JOIN subscriptions d ON d.appId = us.appId AND d.name = us.subscription
      WHERE us.userId = ? AND us.paused = 0 AND us.expiry > ? ORDER BY us.id`,
    user.id, now,
  );
}

/**
 * The user's `info`. The two paths of the real server differ only in `level`: the login path
 * (login, license for an existing user, loginEmail, ...) carries it, the register path
 * (register, first use of a license) does not (docs/protocol/observed-peers.md, captures 03 and 06).
 */
function userInfo(store: Store, user: UserRow, input: InfoInput, withLevel: boolean): UserInfo {
  return {
    username: user.username,
    subscriptions: activeSubsWithLevel(store, user, input.now).map((sub) => ({
      subscription: sub.subscription,
      key: sub.key,
      expiry: String(sub.expiry),
      timeleft: sub.expiry - input.now,
      ...(withLevel ? { level: sub.level } : {}),
    })),
    ip: input.ip,
    hwid: input.hwid,
    createdate: String(user.createdate),
    lastlogin: String(input.now),
  };
}

/** `info` for login, license (existing user), loginEmail and the other login paths. */
export function loginInfo(store: Store, user: UserRow, input: InfoInput): UserInfo {
  return userInfo(store, user, input, true);
}

/** `info` for register and for the first use of a license. */
export function registerInfo(store: Store, user: UserRow, input: InfoInput): UserInfo {
  return userInfo(store, user, input, false);
}

/**
 * `info` with `level` in every subscription item (items that have one keep it). The 1.3 API
 * always answers in this shape, register included: only the 1.2 source's register path lacks
 * `level`, and 1.3 clients gain nothing from two shapes of one object.
 */
export function withLevels(store: Store, appId: number, info: UserInfo): UserInfo {
  const levels = new Map(store.all<{ name: string; level: string }>('SELECT name, level FROM subscriptions WHERE appId = ?', appId).map((row) => [row.name, row.level]));
  return {
    ...info,
    subscriptions: info.subscriptions.map((sub) => (sub.level !== undefined ? sub : { ...sub, level: levels.get(sub.subscription) ?? null })),
  };
}
