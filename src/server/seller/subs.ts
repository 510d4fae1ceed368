/**
 * Subscription definitions (docs/protocol/seller-api.md §3.9): a name and the license level that grants it.
 */
import { countActiveSubs, freezeSubs, thawSubs } from '../domain/user-subs.js';
import { createSubscription, deleteSubscription, findSubscription, listSubscriptions, setSubscriptionLevel } from '../domain/subscriptions.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

function fetchallsubs(ctx: HandlerContext): Reply {
  const subs = listSubscriptions(ctx.store, ctx.app.id).map((sub) => ({ name: sub.name, level: sub.level }));
  return listReply(ctx, 'Successfully retrieved subscriptions', subs);
}

/** `addsub`. E answers a taken name with its generic error; so does the sandbox. */
function addsub(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addsub', { required: ['name', 'level'] });
  const created = createSubscription(ctx.store, ctx.app.id, p.name, p.level);
  return either(created, 'Successfully created subscription!', 'Unhandled Error! Contact support if you need help');
}

function editsub(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'editsub', { required: ['sub', 'level'] });
  const done = setSubscriptionLevel(ctx.store, ctx.app.id, p.sub, p.level);
  return either(done, 'Subscription successfully edited', 'Failed to edit subscription');
}

/** Users keep the subscriptions they hold under a deleted name. */
function delappsub(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delappsub', { required: ['name'] });
  return either(deleteSubscription(ctx.store, ctx.app.id, p.name), 'Successfully deleted subscription!', 'Failed to delete subscription!');
}

/**
 * `pausesub` / `unpausesub`: freeze or restart every user subscription of that name. An unknown
 * name is the failure; a known name with nothing to change succeeds.
 */
function pausesub(ctx: HandlerContext, params: Params): Reply {
  const name = checkedParams(params, 'pausesub', { required: ['subscription'] }).subscription;
  return ctx.store.tx(() => {
    if (findSubscription(ctx.store, ctx.app.id, name) === undefined) return fail('Failed to pause subscription!');
    freezeSubs(ctx.store, { appId: ctx.app.id, subscription: name }, ctx.now);
    return ok('Successfully paused subscription!');
  });
}

function unpausesub(ctx: HandlerContext, params: Params): Reply {
  const name = checkedParams(params, 'unpausesub', { required: ['subscription'] }).subscription;
  return ctx.store.tx(() => {
    if (findSubscription(ctx.store, ctx.app.id, name) === undefined) return fail('Failed to unpause subscription!');
    thawSubs(ctx.store, { appId: ctx.app.id, subscription: name }, ctx.now);
    return ok('Successfully unpaused subscription!');
  });
}

/** `countsubs`: unexpired, unpaused user subscriptions of that name, as a string. */
function countsubs(ctx: HandlerContext, params: Params): Reply {
  const count = countActiveSubs(ctx.store, ctx.app.id, checkedParams(params, 'countsubs', { required: ['name'] }).name, ctx.now);
  return ok('Subscription count found successfully', { count: String(count) });
}

export const subHandlers: HandlerTable = { fetchallsubs, addsub, editsub, delappsub, pausesub, unpausesub, countsubs };
