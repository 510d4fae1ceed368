/**
 * `kactl restore BACKUP`: puts back the records a backup holds (any backup kactl writes before
 * a destructive change, `apply --prune` included). The records become a state body that is
 * applied without pruning, so records still on the server are left as they are and a second
 * restore changes nothing.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { BackupFile } from '../seller/backup.js';

export async function restoreRun(ctx: Context, file: string, options: { dryRun?: boolean }): Promise<void> {
  let backup: BackupFile;
  try {
    backup = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupFile;
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as a kactl backup (${(error as NodeJS.ErrnoException).code ?? 'not JSON'}).`);
  }
  if (backup?.kactl !== 'backup' || !Array.isArray(backup.records) || typeof backup.source?.type !== 'string') throw new UsageError(`${file} is not a kactl backup file.`);
  const { SECTION_SOURCES } = await import('../../state/backup.js');
  const section = (Object.entries(SECTION_SOURCES) as [string, { type: string }][]).find(([, source]) => source.type === backup.source.type)?.[0];
  if (section === undefined) throw new UsageError(`Records from ${backup.source.type} cannot be put back through the seller API.`);
  if (section === 'team') throw new UsageError('Team members cannot be restored: the backup has no passwords or emails, which creating one needs.');
  const { sectionFromRows } = await import('../../state/export.js');
  let records = backup.records as Record<string, unknown>[];
  if (section === 'users') {
    const subscriptions = backup.subscriptions ?? {};
    const without = records.filter((u) => (subscriptions[String(u.username)] ?? []).length === 0);
    if (without.length > 0) ctx.output.warn(`${without.length} user${without.length === 1 ? ' has' : 's have'} no subscription in the backup and ${without.length === 1 ? 'is' : 'are'} left out: ${without.map((u) => String(u.username)).join(', ')}.`);
    records = records.filter((u) => !without.includes(u));
  }
  const body = sectionFromRows(section as never, records, ctx.now(), backup.subscriptions ?? {});
  const { applyState } = await import('./apply.js');
  if (!options.dryRun && !ctx.globals.yes) {
    const { confirmOne } = await import('../../io/ask.js');
    await confirmOne(ctx, `Put back the ${section} missing on the server from ${file}?`);
  }
  await applyState(ctx, await ctx.sellerApi(), { [section]: body }, { dryRun: options.dryRun ?? false, source: file });
}
