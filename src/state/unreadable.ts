/**
 * What of a user the seller API cannot read back, so that no backup, export or restore holds
 * it, and the sentence that says so: one line per field, with how many users it touches and how
 * to give it back. Said when users are deleted (after their backup is written), when they are
 * exported, and when a restore makes them again, so nothing a user had is lost without a word.
 *
 * - Passwords: never readable. A license customer (`client license --key K` made them: named K,
 *   password K) comes back with the key as password (user-plan.ts); the others get a random one.
 * - Emails: the hosted list gives a hash (`email`), a kactl sandbox says only whether one is set
 *   (`hasemail`); the address is given back with `kactl restore --email USER=ADDRESS` or `email:`.
 * - 2FA: the secret is never readable (the list's `2fa` says it was on), and no seller call turns
 *   2FA on: the user turns it on again.
 * - IPs: no call sets one; the next login does.
 * - User variables' read-only flag: a kactl sandbox lists it (`readOnly`) and it is carried; the
 *   hosted list does not, and then it is said.
 * The subscription → key link is carried (`usersub` lists it); where a run cannot make it again,
 * the users planner says so (user-plan.ts).
 */
import type { Row } from './actions.js';
import { flag, text } from './records.js';

export interface UserGaps {
  /** License customers: their password comes back as their key. */
  keyPasswords: string[];
  /** Everyone else: a random password. */
  randomPasswords: string[];
  emails: string[];
  twofa: string[];
  ips: string[];
  /** User variables whose read-only flag the list did not give. */
  readonlyUnknown: number;
}

/** When it is said: after a backup of users, in an export, or before a restore makes them. */
export type GapMoment = 'backup' | 'export' | 'restore';

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object';
}

/** A user row (fetchallusers, or a backup's) says they have an email: the hosted hash, or the sandbox's flag. */
export function hasEmail(user: Row): boolean {
  return flag(user.hasemail) || (typeof user.email === 'string' && user.email !== '');
}

/**
 * Whether `username` is a license customer: a subscription of theirs was granted by the key of
 * their name (`subscriptions`: usersub rows), or `keyOwners` (keys used by the user of their
 * name) holds it.
 */
export function licenseCustomer(username: string, subscriptions: readonly unknown[] | undefined, keyOwners: ReadonlySet<string> = new Set()): boolean {
  return keyOwners.has(username) || (subscriptions ?? []).some((s) => isRow(s) && text(s.key) === username);
}

/** The gaps of `users` (list rows), with their subscriptions (usersub rows by username) and the app's user variables. */
export function userGaps(users: readonly Row[], subscriptions: Readonly<Record<string, readonly unknown[]>> | undefined, uservars: readonly Row[] | undefined, keyOwners: ReadonlySet<string> = new Set()): UserGaps {
  const gaps: UserGaps = { keyPasswords: [], randomPasswords: [], emails: [], twofa: [], ips: [], readonlyUnknown: 0 };
  const names = new Set<string>();
  for (const user of users) {
    const name = text(user.username);
    if (name === '') continue;
    names.add(name);
    (licenseCustomer(name, subscriptions?.[name], keyOwners) ? gaps.keyPasswords : gaps.randomPasswords).push(name);
    if (hasEmail(user)) gaps.emails.push(name);
    if (flag(user['2fa'])) gaps.twofa.push(name);
    if (text(user.ip) !== '') gaps.ips.push(name);
  }
  gaps.readonlyUnknown = (uservars ?? []).filter((v) => names.has(text(v.user)) && (v.readOnly === undefined || v.readOnly === null)).length;
  return gaps;
}

/** Only the users of `gaps` in `keep` (those a restore makes). */
export function gapsOf(gaps: UserGaps, keep: ReadonlySet<string>, readonlyUnknown = gaps.readonlyUnknown): UserGaps {
  const only = (names: readonly string[]): string[] => names.filter((n) => keep.has(n));
  return { keyPasswords: only(gaps.keyPasswords), randomPasswords: only(gaps.randomPasswords), emails: only(gaps.emails), twofa: only(gaps.twofa), ips: only(gaps.ips), readonlyUnknown };
}

const NAMED = 5;

/** `3 users (bob, carol, dan)`; past NAMED names, `and N more`. */
function users(names: readonly string[]): string {
  const shown = names.slice(0, NAMED).join(', ');
  const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
  return `${names.length} user${names.length === 1 ? '' : 's'} (${shown}${more})`;
}

const LEAD: Record<GapMoment, string> = { backup: 'Not in the backup', export: 'Not in the export', restore: 'Not put back' };

/** How each field is given back, by moment. */
const HOW: Record<GapMoment, { email: string; readonly: string; password: string; key: string }> = {
  backup: {
    key: 'kactl restore gives them their key as password again',
    email: 'give them to kactl restore with --email USER=ADDRESS',
    readonly: 'they come back writable; mark them again with kactl uservars set USER --name NAME --data VALUE --read-only',
    password: 'kactl restore gives them a random one; set it with kactl users set-password USER --password-stdin',
  },
  export: {
    key: 'kactl apply gives them their key as password',
    email: 'add email: ADDRESS to their entry before kactl apply',
    readonly: 'add readonly: true to the entries that were',
    password: 'kactl apply gives them a random one unless their entry says password:',
  },
  restore: {
    key: 'they get their key as password again',
    email: 'give them with --email USER=ADDRESS',
    readonly: 'they come back writable; mark them again with kactl uservars set USER --name NAME --data VALUE --read-only',
    password: 'each gets a random one, listed at the end; set it with kactl users set-password USER --password-stdin',
  },
};

/** One sentence per field that is lost (or comes back otherwise), with its count and remedy. */
export function gapLines(gaps: UserGaps, moment: GapMoment): string[] {
  const lead = LEAD[moment];
  const how = HOW[moment];
  const lines: string[] = [];
  if (gaps.randomPasswords.length > 0) lines.push(`${lead}: the passwords of ${users(gaps.randomPasswords)}, which the seller API cannot read; ${how.password}.`);
  if (gaps.keyPasswords.length > 0) {
    const count = gaps.keyPasswords.length === 1 ? 'license customer' : 'license customers';
    lines.push(`${users(gaps.keyPasswords).replace(/ users? /, ` ${count} `)}: ${how.key}, as client license made them (client license --key KEY signs them in).`);
  }
  if (gaps.emails.length > 0) lines.push(`${lead}: the email addresses of ${users(gaps.emails)}, which the seller API cannot read; ${how.email}.`);
  if (gaps.twofa.length > 0) lines.push(`${lead}: the 2FA secrets of ${users(gaps.twofa)}, which no seller call reads or sets; they come back with 2FA off and turn it on again (kactl client 2fa enable).`);
  if (gaps.ips.length > 0) lines.push(`${lead}: the IPs of ${users(gaps.ips)}, which no seller call sets; each comes back at the user's next login.`);
  if (gaps.readonlyUnknown > 0) {
    const count = `${gaps.readonlyUnknown} user variable${gaps.readonlyUnknown === 1 ? '' : 's'}`;
    lines.push(`${lead}: whether ${count} ${gaps.readonlyUnknown === 1 ? 'is' : 'are'} read-only (the server does not list it); ${how.readonly}.`);
  }
  return lines;
}

/** The words a restored user's plan line adds for what of theirs cannot come back. */
export function userGapDetail(gaps: UserGaps): Map<string, string[]> {
  const detail = new Map<string, string[]>();
  const add = (names: readonly string[], words: (name: string) => string): void => {
    for (const name of names) detail.set(name, [...(detail.get(name) ?? []), words(name)]);
  };
  add(gaps.emails, (name) => `no email (--email ${name}=ADDRESS gives it)`);
  add(gaps.twofa, () => '2FA off: its secret cannot come back');
  return detail;
}
