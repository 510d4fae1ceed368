/**
 * A user's account fields (docs/protocol/seller-api.md §3.10): password, email, name, HWIDs, cooldown, bans,
 * pause. Users are looked up by exact name within the app.
 */
import { banUser, unbanUser } from '../domain/bans.js';
import { hashPassword } from '../domain/passwords.js';
import { MAX_USERNAME_LENGTH } from '../domain/register.js';
import { deleteSession, deleteSessionsOf } from '../domain/sessions.js';
import { freezeSubs, thawSubs } from '../domain/user-subs.js';
import { addUserHwid, findUser, renameUser, resetAllHwids, resetUserHwid, setUserCooldown, setUserEmail, setUserPassword } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either } from './answers.js';
import { checkedParams } from './checked-params.js';

/**
 * Runs `change` on the named user inside one transaction; false when there is no such user, or
 * when `change` says it changed nothing (the genuine server's affected_rows, domain/users.ts).
 */
function withUser(ctx: HandlerContext, username: string, change: (userId: number, username: string) => boolean | void): boolean {
  return ctx.store.tx(() => {
    const user = findUser(ctx.store, ctx.app.id, username);
    if (user === undefined) return false;
    return change(user.id, user.username) !== false;
  });
}

/**
 * `resetpw`: a new password, or none (no login until one is set; E lets the next login set it). E answers a failure with 500;
 * here it is 200 (400 spec-strict). The user's sessions end (E leaves them open for up to the session length): a
 * password reset is how a seller locks out whoever knows the old one.
 */
async function resetpw(ctx: HandlerContext, params: Params): Promise<Reply> {
  const p = checkedParams(params, 'resetpw', { required: ['user'], optional: ['passwd'] });
  const username = p.user;
  if (findUser(ctx.store, ctx.app.id, username) === undefined) return fail('Failed To reset password');
  const passwd = p.passwd;
  const hash = passwd === undefined ? null : await hashPassword(passwd);
  const done = withUser(ctx, username, (id, name) => {
    setUserPassword(ctx.store, id, hash);
    deleteSessionsOf(ctx.store, ctx.app.id, name);
  });
  return either(done, 'Password reset successful', 'Failed To reset password');
}

/** `editemail`: stored only as the SHA-1 of the lower-cased address. */
function editemail(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'editemail', { required: ['user', 'email'] });
  const done = withUser(ctx, p.user, (id) => setUserEmail(ctx.store, id, p.email));
  return either(done, 'Successfully changed email!', 'Failed to change email!');
}

/**
 * `editusername`: renames the user everywhere they appear. The message says the user is logged
 * out, so every session logged in as them ends (E ends only `sessionID`, which is ended too).
 */
function editusername(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'editusername', { required: ['currentUsername', 'newUsername'], optional: ['sessionID'] });
  const from = p.currentUsername;
  const to = p.newUsername;
  if (to === 'all') return fail('Username not allowed!');
  if (to.length > MAX_USERNAME_LENGTH) return fail('Username must be shorter than 70 characters');
  return ctx.store.tx(() => {
    const renamed = renameUser(ctx.store, ctx.app.id, from, to);
    if (!renamed.ok) return fail(renamed.code === 'taken' ? 'Username already used!' : 'Failed to change username!');
    deleteSessionsOf(ctx.store, ctx.app.id, to);
    const sessionId = p.sessionID;
    if (sessionId !== undefined) deleteSession(ctx.store, ctx.app.id, sessionId);
    return ok('Successfully changed username, user logged out!');
  });
}

/** `addhwiduser`: appends a HWID. E answers `Added HWID` even for an unknown user; the sandbox says so. */
function addhwiduser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addhwiduser', { required: ['user', 'hwid'] });
  const done = withUser(ctx, p.user, (id) => addUserHwid(ctx.store, id, p.hwid));
  return either(done, 'Added HWID', 'User not found!');
}

function resetuser(ctx: HandlerContext, params: Params): Reply {
  const done = withUser(ctx, checkedParams(params, 'resetuser', { required: ['user'] }).user, (id) => resetUserHwid(ctx.store, id));
  return either(done, 'Successfully reset user!', 'Failed to reset user!');
}

function resetalluser(ctx: HandlerContext): Reply {
  return either(resetAllHwids(ctx.store, ctx.app.id) > 0, 'Successfully reset all users!', 'Failed to reset all users!');
}

function setcooldown(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'setcooldown', { required: ['user', 'cooldown'], numbers: ['cooldown'] });
  const seconds = p.cooldown;
  if (seconds < 0) return fail('Invalid parameter: cooldown must be 0 or more');
  const done = withUser(ctx, p.user, (id) => setUserCooldown(ctx.store, id, seconds));
  return either(done, 'Cooldown set successfully!', 'Failed to set cooldown!');
}

/**
 * `banuser`: the reason is stored and the user's HWID and IP blacklisted (loopback excepted,
 * docs/design.md). Their sessions end too (E leaves them open): a ban should not wait for a logout.
 */
function banuser(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'banuser', { required: ['user', 'reason'] });
  return ctx.store.tx(() => {
    const user = findUser(ctx.store, ctx.app.id, p.user);
    if (user === undefined) return fail('User not found!');
    banUser(ctx.store, ctx.app.id, user.username, p.reason, { hwid: user.hwid, ip: user.ip });
    deleteSessionsOf(ctx.store, ctx.app.id, user.username);
    return ok('Successfully banned user!');
  });
}

/** `unbanuser`: a user who is not banned is the failure E gives a write that changes no row. */
function unbanuser(ctx: HandlerContext, params: Params): Reply {
  const username = checkedParams(params, 'unbanuser', { required: ['user'] }).user;
  return ctx.store.tx(() => {
    const user = findUser(ctx.store, ctx.app.id, username);
    if (user === undefined) return fail('User not found!');
    if (user.banned === null) return fail('Failed to unban user!');
    unbanUser(ctx.store, ctx.app.id, username);
    return ok('Successfully unbanned user!');
  });
}

/**
 * `pauseuser` / `unpauseuser` take `username` (not `user`), as E. Pausing ends the user's
 * sessions (E leaves them open): a paused user cannot log in, so a live session should not outlast it.
 */
function pauseuser(ctx: HandlerContext, params: Params): Reply {
  const done = withUser(ctx, checkedParams(params, 'pauseuser', { required: ['username'] }).username, (userId, name) => {
    freezeSubs(ctx.store, { appId: ctx.app.id, userId }, ctx.now);
    deleteSessionsOf(ctx.store, ctx.app.id, name);
  });
  return either(done, 'Successfully paused user!', 'Failed to pause user!');
}

function unpauseuser(ctx: HandlerContext, params: Params): Reply {
  const done = withUser(ctx, checkedParams(params, 'unpauseuser', { required: ['username'] }).username, (userId) => {
    thawSubs(ctx.store, { appId: ctx.app.id, userId }, ctx.now);
  });
  return either(done, 'Successfully unpaused user!', 'Failed to unpause user!');
}

export const userAccountHandlers: HandlerTable = {
  resetpw,
  editemail,
  editusername,
  addhwiduser,
  resetuser,
  resetalluser,
  setcooldown,
  banuser,
  unbanuser,
  pauseuser,
  unpauseuser,
};
