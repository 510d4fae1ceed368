/**
 * `upgrade` (docs/protocol/client-api.md §4.6): redeem an unused license onto an existing user. No password
 * is checked, nobody is logged in, and the session is left exactly as it was (unvalidated if
 * it was). The user is looked up by exact name only: there is no `all` that reaches every user
 * (the real server's session-less `upgrade username=all` hole is not copied).
 */
import type { Store } from '../store/store.js';
import { findLicense, markLicenseUsed } from './licenses.js';
import { appMessage } from './messages.js';
import { failure, success, type Outcome } from './outcome.js';
import { licenseRefusal } from './register.js';
import { shownKey, shownUser } from './shown.js';
import type { AppRow } from './rows.js';
import { subscriptionsAtLevel } from './subscriptions.js';
import { upgradeSubForLevel } from './user-subs.js';
import { findUser } from './users.js';

export interface UpgradeInput {
  readonly username: string | undefined;
  readonly key: string | undefined;
}

export type UpgradeFailure = 'keynotfound' | 'keyused' | 'keybanned' | 'nosublevel' | 'usernamenotfound' | 'unhandled';

export const UPGRADE_SUCCESS_MESSAGE = 'Upgraded successfully';

/**
 * Checks in order: key unknown, used, banned; no subscription at its level; user unknown; a
 * duration that would not reach past now. Then, in the same transaction: the **first**
 * definition at the key's level is extended by the key's duration if the user holds it active,
 * else granted (with no key recorded); the key becomes used by the user.
 */
export function upgradeUser(store: Store, app: AppRow, input: UpgradeInput, now: number): Outcome<{ message: string; result: 'extended' | 'granted' }, UpgradeFailure> {
  return store.tx(() => {
    const license = input.key === undefined ? undefined : findLicense(store, app.id, input.key);
    const refused = licenseRefusal(store, app, license, input.key);
    if (refused) return refused;
    if (license === undefined) return failure('keynotfound', appMessage(store, app.id, 'keynotfound'), 'no license key was sent');
    const noLevel = `no subscription of the app is at level ${license.level}, the license's level`;
    if (subscriptionsAtLevel(store, app.id, license.level).length === 0) return failure('nosublevel', appMessage(store, app.id, 'nosublevel'), noLevel);
    const user = input.username === undefined ? undefined : findUser(store, app.id, input.username);
    if (user === undefined) {
      return failure('usernamenotfound', appMessage(store, app.id, 'usernamenotfound'), input.username === undefined ? 'no username was sent' : `user ${shownUser(store, app.id, input.username)} not found`);
    }
    const shown = shownUser(store, app.id, user.username);
    if (license.expires <= 0) return failure('unhandled', 'Unhandled Error! Contact us if you need help', { reason: `license ${shownKey(license.key)} has no duration`, user: shown });

    const result = upgradeSubForLevel(store, app.id, user.id, license.level, license.expires, now);
    if (result === 'nosublevel') return failure('nosublevel', appMessage(store, app.id, 'nosublevel'), { reason: noLevel, user: shown });
    markLicenseUsed(store, license.id, user.username, now);
    const how = result === 'extended' ? 'extended the subscription of' : 'granted a subscription to';
    return success({ message: UPGRADE_SUCCESS_MESSAGE, result }, { reason: `license ${shownKey(license.key)} (level ${license.level}) ${how} ${shown}`, user: shown });
  });
}
