/**
 * The backup written before a change to many records: what the operation's list (`backupFrom`)
 * returns, in the file format of state/backup-file.ts. The whole list is saved (a superset of what the change
 * touches): the server decides which records "used" or "expired" means.
 *
 * A backup holds what `kactl restore` needs to put each record back, and says where it was made
 * (server, app, and a one-way fingerprint of the seller key) so that it is not restored into
 * another app by mistake. What a list lacks is fetched before the change:
 * - deleting users: each user's subscriptions (`usersub`, one call a user, paced; the time it
 *   takes is said first), every user variable, and the users past the list's cap of 520
 *   (`userdata`, one call each);
 * - extending or subtracting time for every user: the subscriptions, when there are at most
 *   SUBSCRIPTIONS_LIMIT users (above that the file says it left them out and why).
 * Webhook URLs cannot be read whole (the list shows their start): the change warns before it
 * asks for confirmation, and restore asks for the URLs (`--url`).
 */
import type { Context } from '../../context.js';
import { findSellerOp, opCommandLine } from '../../api/seller-catalog/index.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { redactObject } from '../../api/redact.js';
import { responseOptions } from '../../api/seller-call-options.js';
import { listRows } from '../../api/list-rows.js';
import { readSubscriptions, saveBackup, userExtras } from '../../state/backup-file.js';
import type { BackupContent, BackupFile, SavedBackup } from '../../state/backup-file.js';

export const SUBSCRIPTIONS_LIMIT = 50;
/** Changes whose effect is on subscription expiries, which the user list does not show. */
const TOUCHES_SUBSCRIPTIONS = new Set(['extend', 'subtract']);
/** Changes that delete users: their backup must hold all that makes them again. */
const DELETES_USERS = new Set(['deluser', 'delallusers', 'delexpusers']);

async function subscriptionsOf(ctx: Context, users: unknown[]): Promise<Pick<BackupFile, 'subscriptions' | 'subscriptionsOmitted'>> {
  if (users.length > SUBSCRIPTIONS_LIMIT) {
    const reason = `${users.length} users: more than ${SUBSCRIPTIONS_LIMIT}, so their subscriptions (one call a user) were not fetched.`;
    ctx.output.note(`The backup holds the user list only: ${reason}`);
    return { subscriptionsOmitted: reason };
  }
  return { subscriptions: await readSubscriptions(await ctx.sellerApi(), users) };
}

/** The list a bulk change will back up, read before the confirmation (so its warnings come first). */
export async function readBackupRecords(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>): Promise<unknown[]> {
  const list = op.backupFrom === undefined ? undefined : findSellerOp(op.backupFrom);
  if (!list || list.response.kind !== 'list') throw new Error(`${op.type} has no list to back up from`);
  const listParams = Object.fromEntries(list.params.filter((p) => params[p.wire] !== undefined).map((p) => [p.wire, params[p.wire]!]));
  const body = await (await ctx.sellerApi()).call(list.type, listParams, { effect: 'read', ...responseOptions(list) });
  return listRows(body, list.response.key, list.response.columns[0]?.key ?? 'value').raw;
}

/** What to say before a change that a backup cannot fully undo: webhook URLs the server shows only the start of. */
export async function backupWarnings(op: SellerOp, records: readonly unknown[]): Promise<string[]> {
  if (op.backupFrom !== 'fetchallwebhooks') return [];
  const { listedUrl, SHORT_LINK_LENGTH } = await import('../../state/webhook-plan.js');
  const cut = records.filter((w): w is Record<string, unknown> => w !== null && typeof w === 'object' && listedUrl(w as Record<string, unknown>).truncated);
  if (cut.length === 0) return [];
  const list = cut.map((w) => `${String(w.webid)} (${listedUrl(w).url}…)`).join(', ');
  return [`The server shows only the first ${SHORT_LINK_LENGTH} characters of these webhook URLs, so the backup cannot hold them whole: ${list}. Keep the URLs: kactl restore will ask for them (--url ID=URL).`];
}

/** Exports the records `op` will touch (`records`: the list, when already read); returns the file and how many records it holds. */
export async function writeBackup(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, appName?: string, records?: unknown[]): Promise<SavedBackup> {
  const list = findSellerOp(op.backupFrom ?? '')!;
  const rows = records ?? (await readBackupRecords(ctx, op, params));
  let extras: Partial<BackupContent> = {};
  if (DELETES_USERS.has(op.type)) {
    const { more, ...rest } = await userExtras(ctx, await ctx.sellerApi(), rows);
    rows.push(...more);
    extras = rest;
  } else if (TOUCHES_SUBSCRIPTIONS.has(op.type)) extras = await subscriptionsOf(ctx, rows);
  return saveBackup(ctx, appName, op.type, {
    action: { type: op.type, command: opCommandLine(op), params: redactObject({ ...params }) },
    source: { type: list.type, key: list.response.kind === 'list' ? list.response.key : list.type },
    records: rows,
    ...extras,
  });
}
