/**
 * `kactl restore BACKUP…`: puts back the records of backups kactl wrote before destructive
 * changes (`apply --prune` included). Only what is missing is made; every record on the server
 * is left as it is, so a second restore changes nothing. A backup is restored only into the
 * server and application it was made from, unless `--force`.
 *
 * The records become a state body applied in create-only mode: keys as they were (a used key
 * bound to its user again, never made unused), users with their subscriptions, HWID, ban and
 * variables and a random password (none can be read back), webhooks with the whole URL from
 * `--url` where the backup holds only its start. What cannot be put back is said, and the run
 * ends with exit 1.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { BackupFile } from '../../state/backup-file.js';
import type { Action, Row, Section } from '../../state/records.js';
import { confirmOne } from '../../io/ask.js';
import { keyFingerprint } from '../../api/pacer.js';
import { parseUrls, resumeCommand, applyState } from './apply.js';

const creates = (section: Section) => (action: Action): boolean => action.section === section && action.verb === 'create';

export interface RestoreOptions {
  dryRun?: boolean;
  force?: boolean;
  url?: string[];
}

function readBackup(file: string): BackupFile {
  let backup: BackupFile;
  try {
    backup = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupFile;
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as a kactl backup (${(error as NodeJS.ErrnoException).code ?? 'not JSON'}).`);
  }
  if (backup?.kactl !== 'backup' || !Array.isArray(backup.records) || typeof backup.source?.type !== 'string') throw new UsageError(`${file} is not a kactl backup file.`);
  return backup;
}

function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/** Why `backup` belongs to another server or app than the profile in use, or undefined. */
async function otherOrigin(ctx: Context, file: string, backup: BackupFile): Promise<string | undefined> {
  const settings = await ctx.settings();
  const server = settings.baseUrl.value;
  const key = settings.sellerKey.value;
  const made = `${file} was made for ${backup.app === undefined ? 'an application' : `application "${backup.app}"`} on ${backup.server ?? 'an unknown server'}`;
  if (backup.server === undefined && backup.sellerKey === undefined) return `${file} does not say which server and application it was made from`;
  if (backup.server !== undefined && server !== undefined && serverOf(backup.server) !== serverOf(server)) return `${made}, and this profile uses ${server}`;
  if (backup.sellerKey !== undefined && key !== undefined && key !== '' && backup.sellerKey !== keyFingerprint(key)) return `${made} with another seller key (another application, or a key reset since)`;
  const app = settings.appName.value;
  if (backup.sellerKey === undefined && backup.app !== undefined && app !== undefined && backup.app !== app) return `${made}, and this profile's application is "${app}"`;
  return undefined;
}

interface RestoreBody {
  state: Record<string, unknown>;
  leftOut: string[];
  /** Said when the plan has an action they apply to. */
  notes: { applies: (action: Action) => boolean; text: string }[];
}

async function backupBody(file: string, backup: BackupFile, nowMs: number, into: RestoreBody): Promise<void> {
  const { SECTION_SOURCES } = await import('../../state/backup.js');
  const { stateRecords, sectionBody } = await import('../../state/export.js');
  const section = (Object.entries(SECTION_SOURCES) as [Section, { type: string }][]).find(([, source]) => source.type === backup.source.type)?.[0];
  if (section === undefined) throw new UsageError(`${file}: records from ${backup.source.type} cannot be put back through the seller API.`);
  if (section === 'team') throw new UsageError(`${file}: team members cannot be restored: the backup has no passwords or emails, which creating one needs.`);
  const add = (name: Section, rows: readonly Row[]): void => {
    if (name === 'variables') into.state.variables = { ...(into.state.variables as Row | undefined), ...(sectionBody(name, rows) as Row) };
    else into.state[name] = [...((into.state[name] as Row[] | undefined) ?? []), ...rows];
  };
  const records = stateRecords(section, backup.records as Row[], nowMs, backup.subscriptions === undefined ? {} : { subscriptions: backup.subscriptions });
  add(section, records.rows);
  into.leftOut.push(...records.refused);
  into.notes.push(...records.notes.map((text) => ({ applies: creates(section), text })));
  if (section === 'users' && records.rows.length > 0) {
    const restored = new Set(records.rows.map((u) => String(u.username)));
    const vars = stateRecords('uservars', (backup.uservars ?? []) as Row[], nowMs);
    add('uservars', vars.rows.filter((v) => restored.has(String(v.username))));
    into.notes.push({ applies: creates('users'), text: 'Passwords cannot be read back: each user put back gets a random password nobody knows (listed at the end).' });
    if ((backup.records as Row[]).some((u) => u.ip !== null && u.ip !== undefined && u.ip !== '')) into.notes.push({ applies: creates('users'), text: "A user's IP cannot be set through the seller API: each gets theirs again at their next login." });
  }
  if (section === 'licenses' && records.rows.some((k) => k.used_by !== undefined)) {
    into.notes.push({ applies: (action) => creates('licenses')(action) && action.lane !== undefined, text: 'A used key is bound to its user again (assignkey, and the time that gives taken back); it shows today as the day it was used, since that date cannot be set.' });
  }
}

export async function restoreRun(ctx: Context, files: readonly string[], options: RestoreOptions): Promise<void> {
  const urls = parseUrls(options.url);
  const backups = files.map((file) => ({ file, backup: readBackup(file) }));
  for (const { file, backup } of backups) {
    const other = await otherOrigin(ctx, file, backup);
    if (other !== undefined && !options.force) throw new UsageError(`${other}. Add --force to put its records here anyway.`);
    if (other !== undefined) ctx.output.warn(`${other}; restoring anyway (--force).`);
  }
  const body: RestoreBody = { state: {}, leftOut: [], notes: [] };
  for (const { file, backup } of backups) await backupBody(file, backup, ctx.serverNow(), body);
  const source = files.join(', ');
  const resume = resumeCommand(ctx, ['restore', ...files, '--yes', ...(options.force ? ['--force'] : []), ...[...urls].flatMap(([id, url]) => ['--url', `${id}=${url}`])]);
  await applyState(ctx, await ctx.sellerApi(), body.state, {
    dryRun: options.dryRun ?? false,
    createOnly: true,
    urls,
    source,
    resume,
    leftOut: body.leftOut,
    notes: body.notes,
    restoring: true,
    confirm: async () => {
      if (ctx.globals.yes) return;
      await confirmOne(ctx, `Put back the records above, missing on the server, from ${source}?`);
    },
  });
}
