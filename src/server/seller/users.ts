/**
 * End users (docs/protocol/seller-api.md §3.10): creation, deletion and lookups. Account fields are in
 * user-account.ts, a user's subscriptions in user-subs.ts, user variables in uservars.ts.
 *
 * No answer carries a password hash, a 2FA secret or the app secret (docs/design.md: no holes copied).
 */
import { findLicenseUsedBy } from '../domain/licenses.js';
import { hashPassword } from '../domain/passwords.js';
import { MAX_USERNAME_LENGTH } from '../domain/register.js';
import type { UserRow } from '../domain/rows.js';
import { findSubscription } from '../domain/subscriptions.js';
import { activeUserSubs, insertUserSub } from '../domain/user-subs.js';
import { listUserVars } from '../domain/user-vars.js';
import { createUser, deleteAllUsers, deleteExpiredUsers, deleteUser, findUser, listUsers, webLoaderToken } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok, reply } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, found, listReply, str } from './answers.js';
import { daysToSeconds } from './params.js';
import { checkedParams } from './checked-params.js';

/** `fetchallusers` returns at most this many rows, as E. */
export const USER_LIST_CAP = 520;

/**
 * A user row as `fetchallusers` lists it: E's row minus `password`, `googleAuthCode` and the
 * 2FA secret, `email` (a SHA-1 of the address, guessable by trying addresses) and with the app's
 * name in `app` where E puts the app secret. `2fa` says whether two-factor is on, and `hasemail`
 * (the sandbox's own) whether the user has an email, which E's hash would say: a backup or export
 * then names the users whose address it cannot hold.
 */
function userRow(ctx: HandlerContext, user: UserRow): Record<string, unknown> {
  return {
    id: String(user.id),
    username: user.username,
    hwid: user.hwid,
    app: ctx.app.name,
    owner: user.owner,
    createdate: String(user.createdate),
    lastlogin: str(user.lastlogin),
    banned: user.banned,
    ip: user.ip,
    cooldown: str(user.cooldown),
    '2fa': String(user.twofaEnabled),
    hasemail: user.emailHash === null ? '0' : '1',
  };
}

function fetchallusers(ctx: HandlerContext): Reply {
  const users = listUsers(ctx.store, ctx.app.id, USER_LIST_CAP);
  return listReply(ctx, 'Successfully Retrieved Users', users.map((user) => userRow(ctx, user)));
}

/** Objects `{username}`, as E and the official bots read them (D23 had plain strings). */
function fetchallusernames(ctx: HandlerContext): Reply {
  const users = listUsers(ctx.store, ctx.app.id);
  return listReply(ctx, 'Successfully Retrieved Usernames', users.map((user) => ({ username: user.username })));
}

/**
 * `userdata`: flat fields, no message. E adds `password` (the bcrypt hash): left out. `token`
 * is the web-loader login token, which the seller hands to the user; it is derived from the
 * whole salted hash and reveals nothing of it (domain/users.ts `webLoaderToken`).
 */
function userdata(ctx: HandlerContext, params: Params): Reply {
  const user = findUser(ctx.store, ctx.app.id, checkedParams(params, 'userdata', { required: ['user'] }).user);
  if (user === undefined) return fail('User not found');
  return reply(true, {
    username: user.username,
    subscriptions: activeUserSubs(ctx.store, user.id, ctx.now).map((sub) => ({ subscription: sub.subscription, key: sub.key, expiry: String(sub.expiry) })),
    uservars: listUserVars(ctx.store, user.id).map((v) => ({ name: v.name, data: v.data })),
    ip: user.ip,
    hwid: user.hwid,
    createdate: String(user.createdate),
    lastlogin: str(user.lastlogin),
    cooldown: str(user.cooldown),
    token: webLoaderToken(user),
    banned: user.banned,
  });
}

/** `getkey`: the license the user redeemed last; `key` and no message, as E. */
function getkey(ctx: HandlerContext, params: Params): Reply {
  const license = findLicenseUsedBy(ctx.store, ctx.app.id, checkedParams(params, 'getkey', { required: ['user'] }).user);
  if (license === undefined) return fail('License not found');
  return reply(true, { key: license.key });
}

function verifyuser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'verifyuser', { required: ['user'] });
  return found(findUser(ctx.store, ctx.app.id, p.user) !== undefined, 'User Successfully Verified', 'User Not Found');
}

/**
 * `adduser`: a user with one subscription expiring in `expiry` days, created by `SellerAPI`.
 * Without `pass` the user has no password and cannot log in until `resetpw` gives one (E lets
 * the first login set it: docs/design.md, "Accounts without a password"). Checks in E's order.
 */
async function adduser(ctx: HandlerContext, params: Params): Promise<Reply> {
  const { store, app, now } = ctx;
  const p = checkedParams(params, 'adduser', { required: ['user', 'sub', 'expiry'], optional: ['pass'], numbers: ['expiry'] });
  const username = p.user;
  const subName = p.sub;
  const seconds = daysToSeconds(p.expiry);
  const refusal = (): Reply | undefined => {
    if (username === 'all') return fail('Username not allowed!');
    if (username.length > MAX_USERNAME_LENGTH) return fail('Username must be shorter than 70 characters');
    if (findUser(store, app.id, username) !== undefined) return fail('Username already exists!');
    if (findSubscription(store, app.id, subName) === undefined) return fail('Subscription not found!');
    // A subscription frozen by pausesub / pauseapp: a new user of it would start running at once.
    if (store.get('SELECT 1 AS one FROM user_subs WHERE appId = ? AND subscription = ? AND paused = 1 LIMIT 1', app.id, subName) !== undefined) {
      return fail('Unable to create user while subscription is paused!');
    }
    if (seconds <= 0) return fail('Subscription expiry must be set in the future!');
    return undefined;
  };
  const early = refusal();
  if (early) return early;
  const pass = p.pass;
  const passwordHash = pass === undefined ? null : await hashPassword(pass);
  return store.tx(() => {
    const refused = refusal();
    if (refused) return refused;
    const user = createUser(store, app.id, { username, passwordHash, owner: 'SellerAPI' }, now);
    insertUserSub(store, { appId: app.id, userId: user.id, subscription: subName, expiry: now + seconds });
    return ok('Successfully created user!');
  });
}

function deluser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'deluser', { required: ['user'] });
  return either(deleteUser(ctx.store, ctx.app.id, p.user), 'Successfully deleted user!', 'Failed to delete user!');
}

function delallusers(ctx: HandlerContext): Reply {
  return either(deleteAllUsers(ctx.store, ctx.app.id) > 0, 'Successfully deleted all users!', 'Failed to delete all users!');
}

/** Users without an unexpired (or paused) subscription. */
function delexpusers(ctx: HandlerContext): Reply {
  return ctx.store.tx(() => {
    if (listUsers(ctx.store, ctx.app.id, 1).length === 0) return fail('You have no users!');
    const deleted = deleteExpiredUsers(ctx.store, ctx.app.id, ctx.now);
    return either(deleted.length > 0, 'Successfully deleted expired users!', 'No users are expired!');
  });
}

export const userHandlers: HandlerTable = {
  fetchallusers,
  fetchallusernames,
  userdata,
  getkey,
  verifyuser,
  adduser,
  deluser,
  delallusers,
  delexpusers,
};
