/**
 * Licenses (docs/protocol/seller-api.md §3.6), except `add` (license-create.ts) and `activate`
 * (license-activate.ts).
 */
import {
  addTimeToUnusedLicenses,
  banLicense,
  deleteAllLicenses,
  deleteLicense,
  deleteUnusedLicenses,
  deleteUsedLicenses,
  findLicense,
  listLicenses,
  markLicenseUsed,
  setLicenseDuration,
  setLicenseNote,
  unbanLicense,
} from '../domain/licenses.js';
import type { LicenseRow } from '../domain/rows.js';
import { subscriptionsAtLevel } from '../domain/subscriptions.js';
import { extendOrGrantSub } from '../domain/user-subs.js';
import { findUser } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { checkedParams } from './checked-params.js';
import { fail, ok, reply } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, found, str } from './answers.js';
import { activateLicense } from './license-activate.js';
import { addLicenses } from './license-create.js';
import { cachedListReply } from './list-cache.js';
import { daysToSeconds, flagParam, numberParam } from './params.js';

/** The `key` every one-key operation (`type`) requires. */
function key(params: Params, type: string): string {
  return checkedParams(params, type, { required: ['key'] }).key;
}

/**
 * A key row as `fetchallkeys` lists it. E's `app` column holds the application secret; the
 * sandbox sends the application's name there instead, so a list of keys never leaks the secret.
 */
function keyRow(ctx: HandlerContext, row: LicenseRow): Record<string, unknown> {
  return {
    id: String(row.id),
    key: row.key,
    note: row.note,
    expires: String(row.expires),
    status: row.status,
    level: row.level,
    genby: row.genby,
    gendate: String(row.gendate),
    usedon: str(row.usedon),
    usedby: row.usedby,
    app: ctx.app.name,
    banned: row.banned,
  };
}

function fetchallkeys(ctx: HandlerContext): Reply {
  return cachedListReply(ctx, 'Successfully Retrieved Licenses', () => listLicenses(ctx.store, ctx.app.id).map((row) => keyRow(ctx, row)));
}

/** `info`: flat fields, no message, as E. */
function info(ctx: HandlerContext, params: Params): Reply {
  const row = findLicense(ctx.store, ctx.app.id, key(params, 'info'));
  if (row === undefined) return fail('Key Not Found');
  return reply(true, {
    duration: String(row.expires),
    note: row.note,
    status: row.status,
    level: row.level,
    createdby: row.genby,
    usedby: row.usedby,
    usedon: str(row.usedon),
    creationdate: String(row.gendate),
  });
}

function verify(ctx: HandlerContext, params: Params): Reply {
  return found(findLicense(ctx.store, ctx.app.id, key(params, 'verify')) !== undefined, 'Key Successfully Verified', 'Key Not Found');
}

function del(ctx: HandlerContext, params: Params): Reply {
  const done = deleteLicense(ctx.store, ctx.app.id, key(params, 'del'), { userToo: flagParam(params, 'userToo') });
  return either(done, 'Successfully deleted license!', 'Failed to delete license!');
}

/** Keys joined by exactly ", " (E splits on that); stops at the first that fails, keeping earlier deletions. */
function delmultiple(ctx: HandlerContext, params: Params): Reply {
  const userToo = flagParam(params, 'userToo');
  for (const one of key(params, 'delmultiple').split(', ')) {
    if (!deleteLicense(ctx.store, ctx.app.id, one, { userToo })) return fail('Failed to delete license(s)');
  }
  return ok('Successfully deleted license(s)');
}

function delalllicenses(ctx: HandlerContext): Reply {
  return either(deleteAllLicenses(ctx.store, ctx.app.id) > 0, 'Deleted all keys!', "Didn't find any keys!");
}

function delused(ctx: HandlerContext): Reply {
  return either(deleteUsedLicenses(ctx.store, ctx.app.id) > 0, 'Successfully deleted all used keys!', "Didn't find any used keys!");
}

function delunused(ctx: HandlerContext): Reply {
  return either(deleteUnusedLicenses(ctx.store, ctx.app.id) > 0, 'Successfully deleted all unused keys!', "Didn't find any unused keys!");
}

function ban(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'ban', { required: ['key'], optional: ['reason'] });
  const done = banLicense(ctx.store, ctx.app.id, p.key, p.reason ?? null, { userToo: flagParam(params, 'userToo') });
  return either(done, 'Successfully banned license!', 'Failed to ban license!');
}

function unban(ctx: HandlerContext, params: Params): Reply {
  return either(unbanLicense(ctx.store, ctx.app.id, key(params, 'unban')), 'Successfully unbanned license!', 'Failed to unban license!');
}

function setnote(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'setnote', { required: ['key', 'note'] });
  return either(setLicenseNote(ctx.store, ctx.app.id, p.key, p.note), 'Successfully set note', 'Failed to set note');
}

/**
 * `fetchnote`. E answers `{"note": …}` without `success`; the sandbox adds `success:true`
 * (every answer of the spec has it) and keeps `note`, which is what clients read.
 */
function fetchnote(ctx: HandlerContext, params: Params): Reply {
  const row = findLicense(ctx.store, ctx.app.id, key(params, 'fetchnote'));
  if (row === undefined) return fail('Key not found');
  return reply(true, { note: row.note });
}

/** `edit`: the duration in raw seconds. An unknown key is refused (E reports success for it). */
function edit(ctx: HandlerContext, params: Params): Reply {
  const done = setLicenseDuration(ctx.store, ctx.app.id, key(params, 'edit'), numberParam(params, 'expiry', 0));
  return either(done, 'License Edit Successful', 'Key Not Found');
}

/** `addtime`: days onto every unused key (a used key's time lives on its user). */
function addtime(ctx: HandlerContext, params: Params): Reply {
  const changed = addTimeToUnusedLicenses(ctx.store, ctx.app.id, daysToSeconds(numberParam(params, 'time', 0)));
  // E answers this with 500; a business refusal is 200 (400 spec-strict) under docs/design.md's policy.
  return either(changed > 0, 'Added time to unused licenses!', 'Failed to add time! Key must not be used.');
}

/**
 * `assignkey`: redeem an unused key onto an existing user, as the client `upgrade` does: the
 * first subscription at the key's level is extended by the key's duration, or granted.
 */
function assignkey(ctx: HandlerContext, params: Params): Reply {
  const { store, app, now } = ctx;
  const p = checkedParams(params, 'assignkey', { required: ['key', 'user'] });
  return store.tx(() => {
    const license = findLicense(store, app.id, p.key);
    if (license === undefined) return fail('License not found!');
    if (license.status === 'Banned' || license.banned !== null) return fail('Key is banned, and can not be assigned!');
    if (license.status !== 'Not Used') return fail('Key is already assigned to a user!');
    const user = findUser(store, app.id, p.user);
    if (user === undefined) return fail('Username not found!');
    const sub = subscriptionsAtLevel(store, app.id, license.level)[0];
    if (sub === undefined) return fail('Subscription not found!');
    extendOrGrantSub(store, app.id, user.id, sub.name, license.expires, now, license.key);
    markLicenseUsed(store, license.id, user.username, now);
    return ok('Successfully Assigned Key To User!');
  });
}

export const licenseHandlers: HandlerTable = {
  fetchallkeys,
  info,
  add: addLicenses,
  del,
  delalllicenses,
  delused,
  delunused,
  delmultiple,
  ban,
  unban,
  verify,
  setnote,
  fetchnote,
  edit,
  addtime,
  assignkey,
  activate: activateLicense,
};
