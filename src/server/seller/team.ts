/**
 * Reseller and manager accounts (docs/protocol/seller-api.md §3.14): dashboard sub-accounts of the seller for
 * this app. Passwords are stored hashed; emails only as their SHA-1, as the real service.
 */
import { findSellerOp } from '../../api/seller-catalog/index.js';
import { addBalance, BALANCE_UNITS, createAccount, deleteAppAccount, findAppAccount, listAppAccounts, parseBalance, type Balance } from '../domain/accounts.js';
import { hashPassword } from '../domain/passwords.js';
import type { AccountRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import { fail, failWithStatus, ok, reply } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either } from './answers.js';
import { numberParam } from './params.js';
import { checkedParams } from './checked-params.js';

/** 11 page flags: 1 … 2047 (every page). */
const MAX_PERMS = 2047;
const PERMS_MESSAGE = 'Invalid permission value. You must have at least one permission flag enabled!';

/** `addAccount`: a Reseller (key levels, balance) or a Manager (page permissions) of this app. */
async function addAccount(ctx: HandlerContext, params: Params): Promise<Reply> {
  const perms = numberParam(params, 'perms', MAX_PERMS);
  // E checks only "> 0"; more than the 11 flags would grant pages that do not exist.
  if (perms < 1 || perms > MAX_PERMS) return fail(PERMS_MESSAGE);
  const p = checkedParams(params, 'addAccount', { required: ['role', 'user', 'pass', 'email'], optional: ['keylevels'] });
  const username = p.user;
  const email = p.email;
  // Taken within this app only (its seller's own name included): other apps' teams stay unseen.
  if (username === ctx.app.owner || findAppAccount(ctx.store, ctx.app.id, username) !== undefined) return fail('Username already taken!');
  const passwordHash = await hashPassword(p.pass);
  const created = createAccount(ctx.store, {
    username,
    role: p.role,
    email,
    passwordHash,
    appId: ctx.app.id,
    owner: ctx.app.owner,
    keylevels: p.keylevels ?? 'N/A',
    perms,
  }, ctx.now);
  if (created === 'usernametaken') return fail('Username already taken!');
  if (created === 'emailtaken') return fail('Email already taken!');
  return ok('Successfully added account!');
}

/** Only accounts of this app; the seller's own account has none and cannot be deleted here. */
function deleteAccount(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'deleteAccount', { required: ['user'] });
  return either(deleteAppAccount(ctx.store, ctx.app.id, p.user), 'Successfully deleted account!', 'Failed to delete account!');
}

/** This app's reseller account of that name, or undefined. */
function ownReseller(ctx: HandlerContext, username: string | undefined): AccountRow | undefined {
  const account = username === undefined ? undefined : findAppAccount(ctx.store, ctx.app.id, username);
  return account !== undefined && account.role === 'Reseller' ? account : undefined;
}

/**
 * `setbalance` adds (despite its name) keys of each duration to a reseller's balance. Every
 * unit counts, `year` included (E drops `year`, a bug not copied).
 */
function setbalance(ctx: HandlerContext, params: Params): Reply {
  const add: Partial<Balance> = {};
  for (const unit of BALANCE_UNITS) {
    const count = numberParam(params, unit, 0);
    if (count < 0) return fail(`Invalid parameter: ${unit} must be 0 or more`);
    add[unit] = count;
  }
  return ctx.store.tx(() => {
    const account = ownReseller(ctx, checkedParams(params, 'setbalance', { required: ['username'] }).username);
    if (account === undefined) return fail("You don't own account you were attemping to modify balance for");
    addBalance(ctx.store, ctx.app.id, account.username, add);
    return ok('Balance Successfully Added');
  });
}

/**
 * `getbalance`: `appname` must name this app. No message, as E; every unit is filled in (E sends
 * null for three_month and six_month, a bug not copied). Counts are strings, as E's.
 */
function getbalance(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'getbalance', { required: ['username', 'appname'] });
  const account = ownReseller(ctx, p.username);
  if (account === undefined || p.appname !== ctx.app.name) return fail("Reseller Account Doesn't Exist Or It Doesn't Belong To You");
  const b = parseBalance(account.balance);
  const total = BALANCE_UNITS.reduce((sum, unit) => sum + b[unit], 0);
  return reply(true, {
    balance: {
      day: String(b.day),
      week: String(b.week),
      month: String(b.month),
      three_month: String(b.threemonth),
      six_month: String(b.sixmonth),
      lifetime: String(b.lifetime),
      year: String(b.year),
      total_keys: String(total),
    },
  });
}

/**
 * `fetchteam` (clients only, not in E): `resellers` with their balance (the stored
 * `day|week|month|threemonth|sixmonth|lifetime|year`) and key levels, `managers` with their
 * permission mask. One list may be empty; no account at all is the catalog's empty answer.
 */
function fetchteam(ctx: HandlerContext): Reply {
  const accounts = listAppAccounts(ctx.store, ctx.app.id);
  const response = findSellerOp('fetchteam')?.response;
  if (accounts.length === 0) return failWithStatus(406, response?.kind === 'list' ? response.emptyMessage : 'No team members found');
  return ok('Successfully retrieved team', {
    resellers: accounts.filter((a) => a.role === 'Reseller').map((a) => ({ username: a.username, balance: a.balance, key_levels: a.keylevels })),
    managers: accounts.filter((a) => a.role === 'Manager').map((a) => ({ username: a.username, permissions: String(a.perms) })),
  });
}

export const teamHandlers: HandlerTable = { addAccount, deleteAccount, setbalance, getbalance, fetchteam };
