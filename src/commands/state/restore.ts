/**
 * `kactl restore BACKUP…`: puts back the records of backups kactl wrote before destructive
 * changes (`apply --prune` included). Only what is missing is made; every record on the server
 * is left as it is, so a second restore changes nothing. A backup is restored only into the
 * server and application it was made from, unless `--force`. A state file given by mistake is
 * refused with the command that takes it (`kactl apply -f FILE`).
 *
 * The records become a state body applied in create-only mode: keys as they were (a used key
 * bound to its user again, never made unused, and granting the subscription it granted), users
 * with their subscriptions, HWID, ban and variables (read-only where the backup says), license
 * customers with their key as password and the others with a random one, emails from
 * `--email USER=ADDRESS`, webhooks with the whole URL from `--url` where the backup holds only
 * its start. What cannot come back (src/state/unreadable.ts) is said one line a field before
 * the plan; what cannot be put back at all is said, and the run ends with exit 1.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { BackupFile } from '../../state/backup-file.js';
import type { Action, Row, Section } from '../../state/actions.js';
import { confirmOne } from '../../io/ask.js';
import { STATE_SCHEMA } from '../../state/schema.js';
import { keyFingerprint } from '../../api/pacer.js';
import { parseUrls, resumeCommand, applyState } from './apply.js';

const creates = (section: Section) => (action: Action): boolean => action.section === section && action.verb === 'create';

export interface RestoreOptions {
  dryRun?: boolean;
  force?: boolean;
  url?: string[];
  email?: string[];
}

/** A file that is not a backup: a state file gets the command that takes it, anything else why it is not one. */
async function notABackup(file: string, text: string | undefined, why: string): Promise<UsageError> {
  const { isStateText } = await import('../../state/load.js');
  if (text !== undefined && isStateText(text, Object.keys(STATE_SCHEMA.properties ?? {}))) {
    return new UsageError(`${file} is a state file (as kactl export writes), not a backup: kactl apply -f ${file} puts it on the server (--dry-run shows the plan first).`);
  }
  return new UsageError(why);
}

async function readBackup(file: string): Promise<BackupFile> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as a kactl backup (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let backup: BackupFile;
  try {
    backup = JSON.parse(text) as BackupFile;
  } catch {
    throw await notABackup(file, text, `Cannot read ${file} as a kactl backup (not JSON).`);
  }
  if (backup?.kactl !== 'backup' || !Array.isArray(backup.records) || typeof backup.source?.type !== 'string') throw await notABackup(file, text, `${file} is not a kactl backup file.`);
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
  /** The users' rows, subscriptions and variables as the backups hold them: what cannot come back is read from them. */
  users: Row[];
  subscriptions: Record<string, unknown[]>;
  uservars: Row[];
  /** Keys used by the user of their name (a licenses backup's): license customers. */
  keyOwners: Set<string>;
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
    const vars = (backup.uservars ?? []) as Row[];
    add('uservars', stateRecords('uservars', vars, nowMs).rows.filter((v) => restored.has(String(v.username))));
    into.users.push(...(backup.records as Row[]).filter((u) => restored.has(String(u.username))));
    Object.assign(into.subscriptions, backup.subscriptions);
    into.uservars.push(...vars.filter((v) => restored.has(String(v.user))));
  }
  if (section === 'licenses') {
    for (const key of backup.records as Row[]) if (typeof key.key === 'string' && key.key !== '' && key.usedby === key.key) into.keyOwners.add(key.key);
    if (records.rows.some((k) => k.used_by !== undefined)) {
      into.notes.push({ applies: (action) => creates('licenses')(action) && action.lane !== undefined, text: 'A used key is bound to its user again (assignkey; what that grants is set back to what the backup holds); it shows today as the day it was used, since that date cannot be set.' });
    }
  }
}

/** `--email USER=ADDRESS`, repeatable: the address of a user put back, which no backup holds. */
function parseEmails(values: readonly string[] | undefined, users: readonly Row[]): Map<string, string> {
  const emails = new Map<string, string>();
  const names = new Set(users.map((u) => String(u.username)));
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at < 1) throw new UsageError(`--email takes USER=ADDRESS (a user of the backup, then their email address), not "${value}".`);
    const user = value.slice(0, at);
    if (!names.has(user)) throw new UsageError(`--email ${user}=…: ${user} is not among the users the backups put back.`);
    emails.set(user, value.slice(at + 1));
  }
  return emails;
}

/**
 * What of the users cannot come back, read from the backups: per user, words for their plan
 * line; and, for the users the plan makes, one line per field (said before the plan).
 */
async function userGapsOf(body: RestoreBody, emails: ReadonlyMap<string, string>): Promise<{ detail: Map<string, string[]>; lines: (made: ReadonlySet<string>) => string[] }> {
  const { userGaps, gapsOf, gapLines, userGapDetail } = await import('../../state/unreadable.js');
  const found = userGaps(body.users, body.subscriptions, body.uservars, body.keyOwners);
  const gaps = { ...found, emails: found.emails.filter((name) => !emails.has(name)) };
  return {
    detail: userGapDetail(gaps),
    lines: (made) => {
      const readonly = body.uservars.filter((v) => made.has(String(v.user)) && (v.readOnly === undefined || v.readOnly === null)).length;
      return gapLines(gapsOf(gaps, made, readonly), 'restore');
    },
  };
}

export async function restoreRun(ctx: Context, files: readonly string[], options: RestoreOptions): Promise<void> {
  const urls = parseUrls(options.url);
  const backups: { file: string; backup: BackupFile }[] = [];
  for (const file of files) backups.push({ file, backup: await readBackup(file) });
  for (const { file, backup } of backups) {
    const other = await otherOrigin(ctx, file, backup);
    if (other !== undefined && !options.force) throw new UsageError(`${other}. Add --force to put its records here anyway.`);
    if (other !== undefined) ctx.output.warn(`${other}; restoring anyway (--force).`);
  }
  const body: RestoreBody = { state: {}, leftOut: [], notes: [], users: [], subscriptions: {}, uservars: [], keyOwners: new Set() };
  for (const { file, backup } of backups) await backupBody(file, backup, ctx.serverNow(), body);
  const emails = parseEmails(options.email, body.users);
  if (Array.isArray(body.state.users)) body.state.users = (body.state.users as Row[]).map((u) => (emails.has(String(u.username)) ? { ...u, email: emails.get(String(u.username)) } : u));
  const gaps = await userGapsOf(body, emails);
  const source = files.join(', ');
  const again = [...[...urls].flatMap(([id, url]) => ['--url', `${id}=${url}`]), ...[...emails].flatMap(([user, email]) => ['--email', `${user}=${email}`])];
  const resume = resumeCommand(ctx, ['restore', ...files, '--yes', ...(options.force ? ['--force'] : []), ...again]);
  await applyState(ctx, await ctx.sellerApi(), body.state, {
    dryRun: options.dryRun ?? false,
    createOnly: true,
    urls,
    source,
    resume,
    leftOut: body.leftOut,
    notes: body.notes,
    userDetail: gaps.detail,
    userGaps: gaps.lines,
    restoring: true,
    confirm: async () => {
      if (ctx.globals.yes) return;
      await confirmOne(ctx, `Put back the records above, missing on the server, from ${source}?`);
    },
  });
}
