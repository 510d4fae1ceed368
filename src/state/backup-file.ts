/**
 * The backup file every destructive kactl command and `apply --prune` write before a change to
 * many records, so `kactl restore` reads them all alike: JSON in
 * `<data>/backups/<time>-<app>-<what>.json`, folder 0700 and file 0600 (the records are customer
 * data), saying where it was made (server, app, a one-way fingerprint of the seller key) so that
 * it is not restored into another app by mistake. A user backup also holds what makes the users
 * again beside their rows: users past the list's cap, each user's subscriptions, every user variable.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { findSellerOp } from '../api/seller-catalog/index.js';
import { keyFingerprint } from '../api/pacer.js';
import type { SellerApi } from '../api/seller-api.js';
import { responseOptions } from '../api/seller-call-options.js';
import { listRows } from '../api/list-rows.js';
import { KactlError, SetupError } from '../errors.js';
import { pathFailure, storageErrno } from '../io/storage-errors.js';
import { makeDir } from '../util/make-dir.js';

/** `fetchallusers` stops at this many rows (docs/protocol/seller-api.md §3.10). */
const USER_LIST_CAP = 520;

export interface BackupFile {
  kactl: 'backup';
  version: 1;
  createdAt: string;
  server: string | undefined;
  profile: string | undefined;
  app: string | undefined;
  /** keyFingerprint of the seller key: which app, without the key. */
  sellerKey?: string;
  /** The change this backup was made before. */
  action: { type: string; command: string; params: Record<string, string> };
  /** The list operation the records come from, and the key they were under. */
  source: { type: string; key: string };
  records: unknown[];
  /** Users (deleted, or extended/subtracted): username → that user's subscriptions. */
  subscriptions?: Record<string, unknown[]>;
  subscriptionsOmitted?: string;
  /** Deleted users: every user variable of the app (`fetchalluservars`). */
  uservars?: unknown[];
}

/** `2025-03-01T10-20-30-123Z`: sortable and valid in a file name everywhere. */
export function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

export function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'app';
}

function usernameOf(user: unknown): string | undefined {
  const name = (user as { username?: unknown } | null)?.username;
  return typeof name === 'string' ? name : undefined;
}

/** username → that user's `usersub` rows, one paced call a user. */
export async function readSubscriptions(api: SellerApi, users: readonly unknown[]): Promise<Record<string, unknown[]>> {
  const usersub = findSellerOp('usersub')!;
  const subscriptions: Record<string, unknown[]> = {};
  for (const user of users) {
    const name = usernameOf(user);
    if (name === undefined) continue;
    const body = await api.call(usersub.type, { user: name }, { effect: 'read', list: { key: 'subs', emptyMessage: 'No Subscriptions Found' } });
    subscriptions[name] = listRows(body, 'subs', 'subscription').raw;
  }
  return subscriptions;
}

/** Users past the list's cap: their names from `fetchallusernames`, the rest from `userdata`. */
async function usersPastCap(api: SellerApi, listed: readonly unknown[]): Promise<unknown[]> {
  if (listed.length < USER_LIST_CAP) return [];
  const names = findSellerOp('fetchallusernames')!;
  const body = await api.call(names.type, {}, { effect: 'read', ...responseOptions(names) });
  const known = new Set(listed.map(usernameOf));
  const missing = listRows(body, 'usernames', 'username').rows.map(usernameOf).filter((n): n is string => n !== undefined && !known.has(n));
  const rows: unknown[] = [];
  for (const user of missing) {
    const data = await api.call('userdata', { user }, { effect: 'read' });
    rows.push({ username: user, hwid: data.hwid ?? null, ip: data.ip ?? null, banned: data.banned ?? null, createdate: data.createdate ?? null, lastlogin: data.lastlogin ?? null, cooldown: data.cooldown ?? null });
  }
  return rows;
}

/**
 * Everything that makes deleted users again beside the user rows: users past the list's cap,
 * each user's subscriptions and every user variable. Says first how long the reads take.
 */
export async function userExtras(ctx: Context, api: SellerApi, users: unknown[]): Promise<Pick<BackupFile, 'subscriptions' | 'uservars'> & { more: unknown[] }> {
  const more = await usersPastCap(api, users);
  const all = [...users, ...more];
  const calls = all.length + 1;
  const { estimateLine } = await import('./run-plan.js');
  const estimate = api.estimateMs(calls, api.meanRoundTripMs() ?? 100);
  if (estimate >= 2000) ctx.output.note(`Reading each user's subscriptions for the backup first: ${estimateLine(calls, api.callsPerMinute, estimate)}`);
  const subscriptions = await readSubscriptions(api, all);
  const vars = findSellerOp('fetchalluservars')!;
  const body = await api.call(vars.type, {}, { effect: 'read', ...responseOptions(vars) });
  return { more, subscriptions, uservars: listRows(body, 'vars', 'name').raw };
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

/** What a backup says beyond where and when it was made. */
export type BackupContent = Omit<BackupFile, 'kactl' | 'version' | 'createdAt' | 'server' | 'profile' | 'app'>;

/** A backup written: where, how many records, and what of them it cannot hold (unreadable.ts: users' passwords, emails, …), one line each. */
export interface SavedBackup {
  path: string;
  count: number;
  missing: string[];
}

/** What a backup of users cannot hold, one line a field (none for other records). */
async function missingFrom(content: BackupContent): Promise<string[]> {
  if (findSellerOp(content.source.type)?.group !== 'users' || content.records.length === 0) return [];
  const { gapLines, userGaps } = await import('./unreadable.js');
  const rows = content.records.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object');
  return gapLines(userGaps(rows, content.subscriptions, content.uservars as Record<string, unknown>[] | undefined), 'backup');
}

/**
 * Writes a backup (0600, never over another) into `<data folder>/backups/`, named after the time,
 * the app and `what`; returns the file, how many records it holds and what it cannot hold. Every
 * destructive kactl command and `apply --prune` write through here, so `kactl restore` reads them
 * all alike.
 */
export async function saveBackup(ctx: Context, appName: string | undefined, what: string, content: BackupContent): Promise<SavedBackup> {
  const settings = await ctx.settings();
  const app = appName ?? settings.appName.value;
  const backup: BackupFile = {
    kactl: 'backup',
    version: 1,
    createdAt: new Date(ctx.now()).toISOString(),
    server: settings.baseUrl.value,
    profile: settings.profile.value,
    app,
    ...(settings.sellerKey.value ? { sellerKey: keyFingerprint(settings.sellerKey.value) } : {}),
    ...content,
  };
  const base = `${stamp(ctx.now())}-${slug(app ?? settings.profile.value ?? 'kactl')}-${what}`;
  let file: string;
  try {
    file = writeNew(path.join(ctx.dataDir, 'backups'), base, `${JSON.stringify(backup, null, 2)}\n`);
  } catch (error) {
    const dir = path.join(ctx.dataDir, 'backups');
    // A full or read-only data folder: the sentence names the variable that moves it. That
    // nothing was changed is the caller's to say, once (commands/seller/guard.ts, apply --prune).
    if (storageErrno(error) !== undefined) throw new SetupError(pathFailure(error, dir, ctx).message, { cause: error });
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new KactlError(`Could not write the backup in ${dir} (${code}).`, 'FAILURE', { cause: error });
  }
  return { path: file, count: content.records.length, missing: await missingFrom(content) };
}
