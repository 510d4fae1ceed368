/**
 * The token system's dashboard operations, which the real service has only on its dashboard
 * (docs/protocol/client-api.md §4.1: a banned token's sentence at init): the sandbox takes them
 * as sandbox-only `updatesettings` parameters and lists the tokens in getsettings' `sandbox`
 * object. `addtoken` registers, `bantoken` (+ `banreason`) bans, `unbantoken` lifts the ban,
 * `deltoken` forgets a token.
 */
import { banToken, createToken, deleteToken, findToken, listTokens, unbanToken } from '../domain/tokens.js';
import type { Params } from '../dispatch/params.js';
import type { HandlerContext } from '../dispatch/types.js';

const TOKEN = /^[0-9a-fA-F]{32}$/;
const ACTING_ON_EXISTING = ['bantoken', 'unbantoken', 'deltoken'] as const;

/** Why the token parameters are refused (before anything is written); undefined when fine. */
export function tokenSettingProblem(ctx: HandlerContext, params: Params): string | undefined {
  const token = params.get('addtoken');
  if (token !== undefined && !TOKEN.test(token)) return 'Invalid parameter: addtoken must be 32 hex characters';
  for (const wire of ACTING_ON_EXISTING) {
    const value = params.get(wire);
    if (value !== undefined && findToken(ctx.store, ctx.app.id, value) === undefined) return `Token not found: ${wire} names no token of this application`;
  }
  if (params.get('banreason') !== undefined && params.get('bantoken') === undefined) return 'Invalid parameter: banreason goes with bantoken';
  return undefined;
}

/** Applies the token parameters; run inside updatesettings' transaction, after the check. */
export function applyTokenSettings(ctx: HandlerContext, params: Params): void {
  const { store } = ctx;
  const appId = ctx.app.id;
  const added = params.get('addtoken');
  if (added !== undefined && findToken(store, appId, added) === undefined) createToken(store, appId, { token: added });
  const banned = params.get('bantoken');
  if (banned !== undefined) banToken(store, appId, banned, params.get('banreason') ?? 'Token is banned');
  const unbanned = params.get('unbantoken');
  if (unbanned !== undefined) unbanToken(store, appId, unbanned);
  const deleted = params.get('deltoken');
  if (deleted !== undefined) deleteToken(store, appId, deleted);
}

/** The app's tokens for getsettings: whether banned and why, and whether a file hash is pinned. */
export function tokenList(ctx: HandlerContext): Record<string, unknown>[] {
  return listTokens(ctx.store, ctx.app.id).map((row) => ({ token: row.token, banned: row.banned === 1, reason: row.banned === 1 ? row.reason : null, hashPinned: row.hash !== null }));
}
