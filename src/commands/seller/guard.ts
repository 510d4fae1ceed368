/**
 * The safeguards before a destructive call (docs/contracts.md §11).
 * - One record (`delete-one`): y/N on a terminal; `--yes` without one.
 * - Many records (`bulk`): the application name typed on a terminal; `--yes` without one
 *   (exit 2 and nothing sent). Then the records are exported to a backup file, and if that
 *   fails the change is not made. What the backup cannot hold (users' passwords, emails, 2FA,
 *   IPs: src/state/unreadable.ts) is said after it, one line a field.
 *
 * The name to type is the one the server gives for this seller key (`appdetails`, one read
 * call, made only when there is someone to ask): the key decides which application is
 * changed, and a profile's app name may be missing or belong to another app. When the server
 * has no `appdetails`, the profile's app name (or the profile's name) stands in.
 *
 * Every question names the server and the profile (two sandboxes may both hold `sandbox-app`),
 * and a bulk one counts the records when they were read to be asked about: the backup's list is
 * read before the question rather than after it (one read either way). Without a terminal
 * nothing is read for the question, so the refusal names the server and profile only.
 */
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { ApiFailure } from '../../errors.js';
import { confirmOne, confirmTyped } from '../../io/ask.js';
import * as backup from './backup.js';

/** `on http://127.0.0.1:38881 (profile cc)`: where a change would go. */
export async function wherePhrase(ctx: Context): Promise<string> {
  const settings = await ctx.settings();
  const profile = settings.profile.value;
  return `on ${settings.baseUrl.value ?? 'no server'} (${profile === undefined ? 'no profile: flags and environment' : `profile ${profile}`})`;
}

export async function guardDeleteOne(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>): Promise<void> {
  const target = op.params.find((p) => p.positional);
  const value = target ? params[target.wire] : undefined;
  await confirmOne(ctx, `${op.summary}${value === undefined ? '' : ` (${value})`} ${await wherePhrase(ctx)}?`);
}

/** The application the seller key belongs to, as the server names it. */
export async function applicationName(ctx: Context): Promise<string> {
  try {
    const body = await (await ctx.sellerApi()).call('appdetails', {}, { effect: 'read' });
    const details = body.appdetails as { name?: unknown } | undefined;
    if (typeof details?.name === 'string' && details.name !== '') return details.name;
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
  }
  const settings = await ctx.settings();
  return settings.appName.value ?? settings.profile.value ?? 'default';
}

const plural = (noun: string, count: number): string => (count === 1 ? noun : noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`);

/**
 * The question before a bulk change. An op that touches every record of its list (`--all`) and
 * reads "Delete every license" becomes "Delete 2,000 licenses of sandbox-app on … (profile cc)";
 * any other says how many records its backup takes first.
 */
export function bulkQuestion(op: SellerOp, where: string, appName: string | undefined, count: number | undefined): string {
  const of = appName === undefined ? '' : ` of ${appName}`;
  const touchesAll = op.selector === 'all' || op.fixedParams?.user === 'all';
  const every = /^(\w+) every ([a-z][a-z ]*)$/.exec(op.summary);
  if (count !== undefined && touchesAll && every) {
    return `${every[1]} ${count.toLocaleString('en-US')} ${plural(every[2]!, count)}${of} ${where}.`;
  }
  const counted = count === undefined ? '' : `; ${count.toLocaleString('en-US')} record${count === 1 ? '' : 's'} it may touch are backed up first`;
  return `${op.summary}${of} ${where}${counted}.`;
}

/** Records whose backup is incomplete by nature (webhook URLs): read first, so the warning comes before the question. */
const WARN_BEFORE_ASKING = new Set(['fetchallwebhooks']);

export async function guardBulk(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, options: { backup: boolean }): Promise<void> {
  if (op.noBackupReason !== undefined) ctx.output.warn(op.noBackupReason);
  const asking = !ctx.globals.yes && ctx.io.canPrompt();
  let records: unknown[] | undefined;
  // Read before asking when someone is asked (the question counts them) or when the backup
  // cannot be whole (said first); the backup then writes what was read.
  if (options.backup && op.backupFrom !== undefined && (asking || WARN_BEFORE_ASKING.has(op.backupFrom))) {
    records = await backup.readBackupRecords(ctx, op, params);
    for (const line of await backup.backupWarnings(op, records)) ctx.output.warn(line);
  }
  const appName = asking ? await applicationName(ctx) : undefined;
  await confirmTyped(ctx, bulkQuestion(op, await wherePhrase(ctx), appName, asking ? records?.length : undefined), appName ?? '');
  if (op.backupFrom === undefined) return;
  if (!options.backup) {
    ctx.output.note('No backup (--no-backup).');
    return;
  }
  try {
    const { path, count, missing } = await backup.writeBackup(ctx, op, params, appName, records);
    ctx.output.note(`Backup of ${count} record${count === 1 ? '' : 's'} written to ${path}`);
    // What the seller API cannot read back is lost with the records: said, one line a field.
    for (const line of missing) ctx.output.note(line);
  } catch (error) {
    ctx.output.warn('The backup could not be made, so nothing was changed.');
    throw error;
  }
}
