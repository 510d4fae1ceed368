/**
 * Backups before `apply --prune` deletes records, in the format every destructive kactl
 * command writes (backup-file.ts), so `kactl restore` reads them all the same way.
 * A user backup also holds each user's subscriptions and the user variables: without them a
 * user cannot be made again as they were.
 */
import type { Context } from '../context.js';
import type { SellerApi } from '../api/seller-api.js';
import { saveBackup, userExtras } from './backup-file.js';
import type { SavedBackup } from './backup-file.js';
import type { Section } from './actions.js';
import { SECTIONS } from './actions.js';
import { readSection } from './records.js';
import { sectionSource } from './sections.js';

/** The list operation (and its answer key) each record type comes from: the catalog's, where it has one. */
export const SECTION_SOURCES: Partial<Record<Section, { type: string; key: string }>> = Object.fromEntries(
  SECTIONS.flatMap((section) => {
    const source = sectionSource(section);
    return source === undefined ? [] : [[section, source]];
  }),
);

export async function writeSectionBackup(ctx: Context, api: SellerApi, section: Section, appName: string | undefined): Promise<SavedBackup> {
  const source = SECTION_SOURCES[section];
  if (!source) throw new Error(`${section} has no list to back up from`);
  const records: unknown[] = await readSection(api, section as Parameters<typeof readSection>[1]);
  let extras = {};
  if (section === 'users') {
    const { more, ...rest } = await userExtras(ctx, api, records);
    records.push(...more);
    extras = rest;
  }
  return saveBackup(ctx, appName, `prune-${section}`, {
    action: { type: 'apply --prune', command: 'kactl apply --prune', params: {} },
    source,
    records,
    ...extras,
  });
}
