/**
 * A user's subscriptions (docs/protocol/seller-api.md §3.10): extend (days), subtract (seconds), delete, list.
 * `extend` and `subtract` take `user=all` for every user of the app.
 */
import { findSubscription } from '../domain/subscriptions.js';
import { activeUserSubs, deleteUserSub, extendOrGrantSub, listUserSubs, subtractFromSubs } from '../domain/user-subs.js';
import { findUser, listUsers } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { fail } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { daysToSeconds } from './params.js';
import { checkedParams } from './checked-params.js';

const ALL_USERS = 'all';

/**
 * `extend`: adds the days to the user's active subscription of that name, or grants it expiring
 * now + days. With `user=all` every user gets the same; `activeOnly=1` limits that to users who
 * already hold it active.
 */
function extend(ctx: HandlerContext, params: Params): Reply {
  const { store, app, now } = ctx;
  const p = checkedParams(params, 'extend', { required: ['user', 'sub', 'expiry'], optional: ['activeOnly'], numbers: ['expiry'], flags: ['activeOnly'] });
  const target = p.user;
  const subName = p.sub;
  const seconds = daysToSeconds(p.expiry);
  return store.tx(() => {
    const users = target === ALL_USERS ? listUsers(store, app.id) : [findUser(store, app.id, target)].filter((u) => u !== undefined);
    if (users.length === 0) return fail('User(s) not found!');
    if (findSubscription(store, app.id, subName) === undefined) return fail('Subscription not found!');
    if (seconds <= 0) return fail('Subscription expiry must be set in the future!');
    const activeOnly = target === ALL_USERS && (p.activeOnly ?? false);
    let extended = 0;
    for (const user of users) {
      if (activeOnly && !activeUserSubs(store, user.id, now).some((sub) => sub.subscription === subName)) continue;
      extendOrGrantSub(store, app.id, user.id, subName, seconds, now);
      extended++;
    }
    return either(extended > 0, 'Successfully extended user(s)!', 'Failed to extend user(s)');
  });
}

/** `subtract`: seconds off the active subscriptions of that name (one user, or `all`). */
function subtract(ctx: HandlerContext, params: Params): Reply {
  const { store, app, now } = ctx;
  const p = checkedParams(params, 'subtract', { required: ['user', 'sub', 'seconds'], numbers: ['seconds'] });
  const seconds = p.seconds;
  if (seconds <= 0) return fail('Seconds specified must be greater than zero!');
  const target = p.user;
  const subscription = p.sub;
  const failed = 'Failed to subtract from susbcriptions!';
  return store.tx(() => {
    if (target === ALL_USERS) return either(subtractFromSubs(store, { appId: app.id, subscription }, seconds, now) > 0, 'Successfully subtracted time from subscription!', failed);
    const user = findUser(store, app.id, target);
    if (user === undefined) return fail(failed);
    return either(subtractFromSubs(store, { appId: app.id, userId: user.id, subscription }, seconds, now) > 0, 'Successfully subtracted time from subscription!', failed);
  });
}

function delsub(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delsub', { required: ['user', 'sub'] });
  const user = findUser(ctx.store, ctx.app.id, p.user);
  const deleted = user === undefined ? 0 : deleteUserSub(ctx.store, user.id, p.sub);
  return either(deleted > 0, 'Successfully deleted subscription!', 'Failed to delete subscription!');
}

/**
 * `usersub`: every subscription row of the user, paused and expired ones included. E answers
 * none with `success:true, subs:"not_found"`; the sandbox answers as every other empty list
 * (S22's `No Subscriptions Found`), which the CLI reads as an empty list.
 */
function usersub(ctx: HandlerContext, params: Params): Reply {
  const user = findUser(ctx.store, ctx.app.id, checkedParams(params, 'usersub', { required: ['user'] }).user);
  const rows = user === undefined ? [] : listUserSubs(ctx.store, user.id);
  return listReply(
    ctx,
    'Successfully Retrieved User Subscription',
    rows.map((sub) => ({
      id: String(sub.id),
      user: user?.username ?? '',
      subscription: sub.subscription,
      expiry: String(sub.expiry),
      app: ctx.app.name,
      key: sub.key,
      paused: String(sub.paused),
    })),
  );
}

export const userSubHandlers: HandlerTable = { extend, subtract, delsub, usersub };
