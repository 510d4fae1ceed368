/**
 * The safeguards before a destructive call (docs/contracts.md §11).
 * - One record (`delete-one`): y/N on a terminal; `--yes` without one.
 * - Many records (`bulk`): the application name typed on a terminal; `--yes` without one
 *   (exit 2 and nothing sent). Then the records are exported to a backup file, and if that
 *   fails the change is not made.
 *
 * The name to type is the one the server gives for this seller key (`appdetails`, one read
 * call, made only when there is someone to ask): the key decides which application is
 * changed, and a profile's app name may be missing or belong to another app. When the server
 * has no `appdetails`, the profile's app name (or the profile's name) stands in.
 */
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { ApiFailure } from '../../errors.js';
import { confirmOne, confirmTyped } from '../../io/ask.js';

export async function guardDeleteOne(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>): Promise<void> {
  const target = op.params.find((p) => p.positional);
  const value = target ? params[target.wire] : undefined;
  await confirmOne(ctx, `${op.summary}${value === undefined ? '' : ` (${value})`}?`);
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

/** Records whose backup is incomplete by nature (webhook URLs): read first, so the warning comes before the question. */
const WARN_BEFORE_ASKING = new Set(['fetchallwebhooks']);

export async function guardBulk(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, options: { backup: boolean }): Promise<void> {
  if (op.noBackupReason !== undefined) ctx.output.warn(op.noBackupReason);
  const backup = await import('./backup.js');
  let records: unknown[] | undefined;
  if (options.backup && op.backupFrom !== undefined && WARN_BEFORE_ASKING.has(op.backupFrom)) {
    records = await backup.readBackupRecords(ctx, op, params);
    for (const line of await backup.backupWarnings(op, records)) ctx.output.warn(line);
  }
  const appName = !ctx.globals.yes && ctx.io.canPrompt() ? await applicationName(ctx) : undefined;
  await confirmTyped(ctx, appName === undefined ? op.summary : `${op.summary} of application "${appName}".`, appName ?? '');
  if (op.backupFrom === undefined) return;
  if (!options.backup) {
    ctx.output.note('No backup (--no-backup).');
    return;
  }
  try {
    const { path, count } = await backup.writeBackup(ctx, op, params, appName, records);
    ctx.output.note(`Backup of ${count} record${count === 1 ? '' : 's'} written to ${path}`);
  } catch (error) {
    ctx.output.warn('The backup could not be made, so nothing was changed.');
    throw error;
  }
}
