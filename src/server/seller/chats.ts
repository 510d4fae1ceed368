/**
 * Chats (docs/protocol/seller-api.md §3.3): channels with a per-user delay, their messages, mutes.
 * Units differ as on the wire: `addchannel` takes seconds, `editchan` minutes (fractions
 * allowed), `muteuser` seconds from now.
 */
import { clearChannel, createChannel, deleteChannel, listChannels, listMutes, muteUser, setChannelDelay, unmuteUser } from '../domain/chat.js';
import { findUser } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

function fetchallchats(ctx: HandlerContext): Reply {
  const rows = listChannels(ctx.store, ctx.app.id).map((c) => ({ name: c.name, delay: String(c.delay) }));
  return listReply(ctx, 'Successfully retrieved chats', rows);
}

/** A taken name is the failure. A negative delay is stored as 0. */
function addchannel(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addchannel', { required: ['name', 'delay'], numbers: ['delay'] });
  const created = createChannel(ctx.store, ctx.app.id, p.name, p.delay);
  return either(created, 'Successfully created channel!', 'Failed to create channel!');
}

/** `editchan`: the delay in minutes, stored as seconds. Absent means 0, as E (null × 60). */
function editchan(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'editchan', { required: ['name'], optional: ['delay'], numbers: ['delay'] });
  const done = setChannelDelay(ctx.store, ctx.app.id, p.name, (p.delay ?? 0) * 60);
  return either(done, 'Successfully updated channel!', 'Failed To update channel!');
}

/** Deletes the channel and its messages. */
function delchannel(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delchannel', { required: ['name'] });
  return either(deleteChannel(ctx.store, ctx.app.id, p.name), 'Successfully deleted channel!', 'Failed to delete channel!');
}

function clearchannel(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'clearchannel', { required: ['name'] });
  return either(clearChannel(ctx.store, ctx.app.id, p.name), 'Successfully cleared channel!', 'Failed to clear channel!');
}

/** `muteuser`: muted until now + `time` seconds; the user must exist. */
function muteuser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'muteuser', { required: ['user', 'time'], numbers: ['time'] });
  const user = findUser(ctx.store, ctx.app.id, p.user);
  if (user === undefined) return fail("User doesn't exist!");
  muteUser(ctx.store, ctx.app.id, user.username, ctx.now + p.time);
  return ok('Successfully muted user!');
}

function unmuteuser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'unmuteuser', { required: ['user'] });
  return either(unmuteUser(ctx.store, ctx.app.id, p.user), 'Successfully unmuted user!', 'Failed to unmute user!');
}

/** Every mute row; `time` is the Unix time it ends (past ones included, as E). */
function fetchallmutes(ctx: HandlerContext): Reply {
  const rows = listMutes(ctx.store, ctx.app.id).map((m) => ({ user: m.user, time: String(m.time) }));
  return listReply(ctx, 'Successfully retrieved mutes', rows);
}

export const chatHandlers: HandlerTable = { fetchallchats, addchannel, editchan, delchannel, clearchannel, muteuser, unmuteuser, fetchallmutes };
