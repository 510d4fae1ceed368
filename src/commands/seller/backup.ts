/**
 * The backup written before a change to many records: what the operation's list (`backupFrom`)
 * returns, as JSON in `<data>/backups/<time>-<app>-<type>.json`. Folders 0700 and files 0600:
 * the records are customer data. The whole list is saved (a superset of what the change
 * touches): the server decides which records "used" or "expired" means.
 *
 * Extending or subtracting time for every user: user rows carry no expiries, so the backup also
 * holds each user's subscriptions (`usersub`, one call a user) when there are at most
 * SUBSCRIPTIONS_LIMIT users, which keeps it within the seller budget; above that the file says
 * it left them out and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { findSellerOp, opCommandLine } from '../../api/seller-catalog/index.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { redactObject } from '../../api/redact.js';
import { KactlError, SetupError } from '../../errors.js';
import { pathFailure, storageErrno } from '../../io/storage-errors.js';
import { makeDir } from '../../util/make-dir.js';
import { responseOptions } from '../../api/seller-call-options.js';
import { listRows } from './render.js';

export const SUBSCRIPTIONS_LIMIT = 50;
/** Changes whose effect is on subscription expiries, which the user list does not show. */
const TOUCHES_SUBSCRIPTIONS = new Set(['extend', 'subtract']);

export interface BackupFile {
  kactl: 'backup';
  version: 1;
  createdAt: string;
  server: string | undefined;
  profile: string | undefined;
  app: string | undefined;
  /** The change this backup was made before. */
  action: { type: string; command: string; params: Record<string, string> };
  /** The list operation the records come from, and the key they were under. */
  source: { type: string; key: string };
  records: unknown[];
  /** extend/subtract for every user: username → that user's subscriptions. */
  subscriptions?: Record<string, unknown[]>;
  subscriptionsOmitted?: string;
}

/** `2025-03-01T10-20-30-123Z`: sortable and valid in a file name everywhere. */
export function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

export function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'app';
}

async function subscriptionsOf(ctx: Context, users: unknown[]): Promise<Pick<BackupFile, 'subscriptions' | 'subscriptionsOmitted'>> {
  if (users.length > SUBSCRIPTIONS_LIMIT) {
    const reason = `${users.length} users: more than ${SUBSCRIPTIONS_LIMIT}, so their subscriptions (one call a user) were not fetched.`;
    ctx.output.note(`The backup holds the user list only: ${reason}`);
    return { subscriptionsOmitted: reason };
  }
  const usersub = findSellerOp('usersub')!;
  const api = await ctx.sellerApi();
  const subscriptions: Record<string, unknown[]> = {};
  for (const user of users) {
    const name = (user as { username?: unknown }).username;
    if (typeof name !== 'string') continue;
    const body = await api.call(usersub.type, { user: name }, { effect: 'read', ...responseOptions(usersub) });
    subscriptions[name] = listRows(body, 'subs', 'subscription').raw;
  }
  return { subscriptions };
}

/** Writes `content` to a new file in `dir` (never over an existing one), 0600. */
export function writeNew(dir: string, base: string, content: string): string {
  makeDir(dir);
  fs.chmodSync(dir, 0o700);
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    try {
      fs.writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Exports the records `op` will touch; returns the file and how many records it holds. */
export async function writeBackup(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, appName?: string): Promise<{ path: string; count: number }> {
  const list = op.backupFrom === undefined ? undefined : findSellerOp(op.backupFrom);
  if (!list || list.response.kind !== 'list') throw new Error(`${op.type} has no list to back up from`);
  const listParams = Object.fromEntries(list.params.filter((p) => params[p.wire] !== undefined).map((p) => [p.wire, params[p.wire]!]));
  const body = await (await ctx.sellerApi()).call(list.type, listParams, { effect: 'read', ...responseOptions(list) });
  const records = listRows(body, list.response.key, list.response.columns[0]?.key ?? 'value').raw;
  return saveBackup(ctx, appName, op.type, {
    action: { type: op.type, command: opCommandLine(op), params: redactObject({ ...params }) },
    source: { type: list.type, key: list.response.key },
    records,
    ...(TOUCHES_SUBSCRIPTIONS.has(op.type) ? await subscriptionsOf(ctx, records) : {}),
  });
}

/** What a backup says beyond where and when it was made. */
export type BackupContent = Omit<BackupFile, 'kactl' | 'version' | 'createdAt' | 'server' | 'profile' | 'app'>;

/**
 * Writes a backup (0600, never over another) into `<data folder>/backups/`, named after the time,
 * the app and `what`; returns the file and how many records it holds. Every destructive kactl
 * command and `apply --prune` write through here, so `kactl restore` reads them all alike.
 */
export async function saveBackup(ctx: Context, appName: string | undefined, what: string, content: BackupContent): Promise<{ path: string; count: number }> {
  const settings = await ctx.settings();
  const app = appName ?? settings.appName.value;
  const backup: BackupFile = {
    kactl: 'backup',
    version: 1,
    createdAt: new Date(ctx.now()).toISOString(),
    server: settings.baseUrl.value,
    profile: settings.profile.value,
    app,
    ...content,
  };
  const base = `${stamp(ctx.now())}-${slug(app ?? settings.profile.value ?? 'kactl')}-${what}`;
  try {
    return { path: writeNew(path.join(ctx.dataDir, 'backups'), base, `${JSON.stringify(backup, null, 2)}\n`), count: content.records.length };
  } catch (error) {
    const dir = path.join(ctx.dataDir, 'backups');
    // A full or read-only data folder: the sentence names the variable that moves it.
    if (storageErrno(error) !== undefined) {
      throw new SetupError(pathFailure(error, dir, ctx).message, { cause: error, hints: ['The backup comes first, so nothing was changed.'] });
    }
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new KactlError(`Could not write the backup in ${dir} (${code}).`, 'FAILURE', { cause: error });
  }
}
