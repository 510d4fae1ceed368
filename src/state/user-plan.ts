/**
 * Users in a state file: a username, one subscription (`subscription` + `expiry`) or several
 * (`subscriptions`), and optionally a password, an email, an HWID and a ban reason.
 *
 * A user the file gives no password gets a random one that nobody is told: the seller API
 * would otherwise make an account whose first login sets the password, which the first stranger
 * to try a login would own. The run lists those users with how to give them a password.
 *
 * An expiry is a duration from now or a moment (`2030-01-31T12:00:00Z`, what `export` writes).
 * The API takes days from now, so a moment is turned into days when the call is sent, and read
 * back afterwards: a second lost to the clock ticking in between is put right (`subtract` takes
 * seconds, `extend` days). Subscriptions that have ended are not made again (no call takes an
 * expiry in the past); a user left with none is made with a one-second subscription that is
 * deleted again, since `adduser` needs one.
 */
import { randomBytes } from 'node:crypto';
import type { Action, ActionIO, Call, Planning, Row } from './actions.js';
import { LATER } from './actions.js';
import { daysParam, idOf, keyed, shown, text } from './records.js';
import { durationSeconds } from './load.js';

const MOMENT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;

/** A subscription as the file asks for it: ending at a moment, or after a duration from now. */
interface WantedSub {
  name: string;
  at?: number;
  seconds?: number;
  /** Name and expiry as a plan may show them (never a value read from the environment). */
  shownName: string;
  shownExpiry: string;
}

/** `2030-01-31T12:00:00Z` ↔ Unix seconds. */
export function momentSeconds(value: string): number {
  return Math.floor(Date.parse(value) / 1000);
}

export function momentText(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isMoment(value: unknown): value is string {
  return typeof value === 'string' && MOMENT.test(value);
}

function wantedSubs(d: Row): WantedSub[] {
  const listed = Array.isArray(d.subscriptions) ? (d.subscriptions as Row[]) : d.subscription === undefined ? [] : [{ row: d, name: 'subscription', expiry: 'expiry' }];
  return listed.map((entry) => {
    // One subscription is the user row's own two fields; several are rows of their own.
    const { row, name, expiry } = 'row' in entry ? (entry as { row: Row; name: string; expiry: string }) : { row: entry, name: 'name', expiry: 'expiry' };
    return {
      name: text(row[name]),
      shownName: idOf(row, name),
      shownExpiry: idOf(row, expiry),
      ...(isMoment(row[expiry]) ? { at: momentSeconds(row[expiry]) } : { seconds: durationSeconds(row[expiry] as string) }),
    };
  });
}

/** Seconds from `now` that `sub` should run, or 0 when it has ended. */
function secondsLeft(sub: WantedSub, now: number): number {
  return Math.max(0, sub.at === undefined ? sub.seconds! : sub.at - now);
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object';
}

/** Reads the user's subscriptions and puts right any that ends a second or so off its moment. */
async function settleMoments(io: ActionIO, user: string, subs: readonly WantedSub[]): Promise<void> {
  const body = await io.send({ type: 'usersub', params: { user } });
  const rows = Array.isArray(body.subs) ? body.subs.filter(isRow) : [];
  for (const sub of subs) {
    if (sub.at === undefined) continue;
    const row = rows.find((r) => text(r.subscription) === sub.name);
    if (row === undefined) continue;
    const off = Number(row.expiry) - sub.at;
    if (off > 0) await io.send({ type: 'subtract', params: { user, sub: sub.name, seconds: String(off) } });
    else if (off < 0) await io.send({ type: 'extend', params: { user, sub: sub.name, expiry: daysParam(-off) } });
  }
}

function describeSubs(d: Row): string[] {
  return wantedSubs(d).map((s) => (s.at === undefined ? `subscription ${s.shownName}, expiry ${s.shownExpiry}` : `subscription ${s.shownName} until ${s.shownExpiry}`));
}

function createUser(d: Row, fallbackSub: string | undefined, plan: Planning): Action | undefined {
  const user = text(d.username);
  const id = idOf(d, 'username');
  const subs = wantedSubs(d);
  const placeholder = subs.length === 0 ? fallbackSub : undefined;
  if (subs.length === 0 && placeholder === undefined) {
    plan.leftOut.push(`user ${id}: a user is made with a subscription, and the application has none.`);
    return undefined;
  }
  const password = d.password === undefined ? randomBytes(18).toString('base64url') : text(d.password);
  const add = (sub: string, seconds: number): Call => ({ type: 'adduser', params: { user, sub, expiry: daysParam(seconds), pass: password } });
  const after: Call[] = [
    ...(d.email === undefined ? [] : [{ type: 'editemail', params: { user, email: text(d.email) } }]),
    ...(d.hwid === undefined || text(d.hwid) === '' ? [] : [{ type: 'addhwiduser', params: { user, hwid: text(d.hwid) } }]),
    // After the HWID: a ban blacklists the user's HWID, as it did when they were banned.
    ...(d.banned === undefined ? [] : [{ type: 'banuser', params: { user, reason: text(d.banned) || 'Banned' } }]),
  ];
  const detail = [
    ...describeSubs(d),
    d.password === undefined ? 'a random password' : 'password (set)',
    ...(d.email === undefined ? [] : [`email ${shown(d, 'email')}`]),
    ...(d.hwid === undefined ? [] : [`hwid ${shown(d, 'hwid')}`]),
    ...(d.banned === undefined ? [] : [`banned (${shown(d, 'banned')})`]),
  ];
  const first = subs[0];
  const planned: Call[] = [
    { type: 'adduser', params: { user, sub: first?.name ?? placeholder!, expiry: LATER, pass: password } },
    ...subs.slice(1).map((s) => ({ type: 'extend', params: { user, sub: s.name, expiry: LATER } })),
    ...(subs.some((s) => s.at !== undefined) ? [{ type: 'usersub', params: { user } }] : []),
    ...(placeholder === undefined ? [] : [{ type: 'delsub', params: { user, sub: placeholder } }]),
    ...after,
  ];
  return {
    section: 'users',
    verb: 'create',
    id,
    detail,
    calls: planned,
    lane: `user:${user}`,
    ...(d.password === undefined ? { randomPassword: user } : {}),
    async run(io) {
      const now = io.nowSeconds();
      // Ended ones grant nothing and no call takes a past expiry.
      const live = subs.filter((s) => secondsLeft(s, now) >= 1);
      const [head, ...rest] = live;
      await io.send(head === undefined ? add(placeholder ?? subs[0]!.name, 1) : add(head.name, secondsLeft(head, now)));
      for (const sub of rest) await io.send({ type: 'extend', params: { user, sub: sub.name, expiry: daysParam(secondsLeft(sub, io.nowSeconds())) } });
      if (head === undefined) await io.send({ type: 'delsub', params: { user, sub: placeholder ?? subs[0]!.name } });
      else if (live.some((s) => s.at !== undefined)) await settleMoments(io, user, live);
      for (const call of after) await io.send(call);
    },
  };
}

/** An existing user: only what the file states and the API can change (ban, HWID). */
function updateUser(d: Row, c: Row): Action | undefined {
  const user = text(d.username);
  const detail: string[] = [];
  const calls: Call[] = [];
  if (d.hwid !== undefined && text(d.hwid) !== text(c.hwid)) {
    detail.push(`hwid: ${JSON.stringify(text(c.hwid))} → ${shown(d, 'hwid')}`);
    if (text(c.hwid) !== '') calls.push({ type: 'resetuser', params: { user } });
    if (text(d.hwid) !== '') calls.push({ type: 'addhwiduser', params: { user, hwid: text(d.hwid) } });
  }
  if (d.banned !== undefined && text(d.banned) !== text(c.banned)) {
    detail.push(`banned: ${JSON.stringify(text(c.banned) || null)} → ${shown(d, 'banned')}`);
    calls.push({ type: 'banuser', params: { user, reason: text(d.banned) || 'Banned' } });
  }
  return calls.length === 0 ? undefined : { section: 'users', verb: 'update', id: idOf(d, 'username'), detail, calls };
}

/** `subscriptionNames`: the application's subscriptions (on the server or made by the plan). */
export function planUsers(desired: Row[], current: Row[], plan: Planning, subscriptionNames: readonly string[] = []): Action[] {
  return keyed(desired, current, (r) => text(r.username), (r) => text(r.username), {
    create: (d) => createUser(d, subscriptionNames[0], plan),
    update: (d, c) => updateUser(d, c),
    remove: (c) => ({ section: 'users', verb: 'delete', id: text(c.username), detail: [], calls: [{ type: 'deluser', params: { user: text(c.username) } }] }),
  }, plan);
}
