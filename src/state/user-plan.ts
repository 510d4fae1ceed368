/**
 * Users in a state file: a username, one subscription (`subscription` + `expiry`) or several
 * (`subscriptions`), and optionally a password, an email, an HWID and a ban.
 *
 * A user the file gives no password gets a random one that nobody is told: the seller API
 * would otherwise make an account whose first login sets the password, which the first stranger
 * to try a login would own. The run lists those users with how to give them a password. A
 * license customer is the exception: `client license --key K` makes a user named K whose
 * password is K, and such a user (named after a key the file holds used by them, or whose
 * subscription says that key granted it) comes back with the key as password, so the same
 * `client license --key K` signs them in again.
 *
 * An expiry is a duration from now or a moment (`2030-01-31T12:00:00Z`, what `export` writes).
 * The API takes days from now, so a moment is turned into days when the call is sent, and read
 * back afterwards: a second lost to the clock ticking in between is put right (`subtract` takes
 * seconds, `extend` days). Subscriptions that have ended are not made again (no call takes an
 * expiry in the past); a user left with none is made with a one-second subscription that is
 * deleted again, since `adduser` needs one.
 *
 * A subscription a key granted says so (`key:`). When the run makes that key used by the user
 * (license-plan.ts), the key grants it again, as it did, and it is not made here; otherwise it
 * is made like any other and the plan says it comes back without its key (KEY - in `users get`).
 *
 * `banned:` is a reason (or true) for a banned user and false for one who is not: an existing
 * user is banned or unbanned to match. Left out, a ban on the server stays, and the plan says so.
 */
import { randomBytes } from 'node:crypto';
import type { Action, ActionIO, Call, Planning, Row } from './actions.js';
import { LATER } from './actions.js';
import { daysParam, idOf, keyed, shown, text } from './records.js';
import { durationSeconds } from './load.js';

const MOMENT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;

/** A subscription as the file asks for it: ending at a moment, or after a duration from now. */
export interface WantedSub {
  name: string;
  at?: number;
  seconds?: number;
  /** The key that granted it, when the file says. */
  key?: string;
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

export function wantedSubs(d: Row): WantedSub[] {
  const listed = Array.isArray(d.subscriptions) ? (d.subscriptions as Row[]) : d.subscription === undefined ? [] : [{ row: d, name: 'subscription', expiry: 'expiry' }];
  return listed.map((entry) => {
    // One subscription is the user row's own two fields; several are rows of their own.
    const { row, name, expiry } = 'row' in entry ? (entry as { row: Row; name: string; expiry: string }) : { row: entry, name: 'name', expiry: 'expiry' };
    return {
      name: text(row[name]),
      shownName: idOf(row, name),
      shownExpiry: idOf(row, expiry),
      ...(row === d || row.key === undefined ? {} : { key: text(row.key) }),
      ...(isMoment(row[expiry]) ? { at: momentSeconds(row[expiry]) } : { seconds: durationSeconds(row[expiry] as string) }),
    };
  });
}

/** Seconds from `now` that `sub` should run, or 0 when it has ended. */
export function secondsLeft(sub: WantedSub, now: number): number {
  return Math.max(0, sub.at === undefined ? sub.seconds! : sub.at - now);
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object';
}

/** Reads the user's subscriptions and puts right any that ends a second or so off its moment. */
export async function settleMoments(io: ActionIO, user: string, subs: readonly WantedSub[]): Promise<void> {
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

function describeSub(s: WantedSub, byKey: boolean): string {
  const when = s.at === undefined ? `subscription ${s.shownName}, expiry ${s.shownExpiry}` : `subscription ${s.shownName} until ${s.shownExpiry}`;
  return byKey ? `${when} (granted by key ${s.key!})` : when;
}

/** The reason `banned:` gives, or undefined when it says the user is not banned (or says nothing). */
export function banReason(value: unknown): string | undefined {
  if (value === undefined || value === false) return undefined;
  return value === true ? 'Banned' : text(value) || 'Banned';
}

/** What the users step knows of the keys (license-plan.ts): which it makes used, and by whom. */
export interface KeyLinks {
  /** Keys this run makes used by the user the file says: the subscriptions they granted are theirs to grant again. */
  bound: ReadonlySet<string>;
  /** username → the key of that name the file holds used by them (a license customer). */
  keyOwners: ReadonlySet<string>;
}

const NO_LINKS: KeyLinks = { bound: new Set(), keyOwners: new Set() };

/** A user made by `client license --key K`: named K, and K is theirs (used by them, or it granted a subscription of theirs). */
export function isLicenseCustomer(d: Row, links: KeyLinks): boolean {
  const user = text(d.username);
  return d.password === undefined && (links.keyOwners.has(user) || wantedSubs(d).some((s) => s.key === user));
}

interface NewUser {
  user: string;
  password: string;
  /** The subscriptions this action makes (the others, a key grants). */
  made: WantedSub[];
  placeholder: string | undefined;
  after: Call[];
}

function userCalls(d: Row, made: readonly WantedSub[], placeholder: string | undefined, password: string): { after: Call[]; planned: Call[] } {
  const user = text(d.username);
  const reason = banReason(d.banned);
  const after: Call[] = [
    ...(d.email === undefined ? [] : [{ type: 'editemail', params: { user, email: text(d.email) } }]),
    ...(d.hwid === undefined || text(d.hwid) === '' ? [] : [{ type: 'addhwiduser', params: { user, hwid: text(d.hwid) } }]),
    // After the HWID: a ban blacklists the user's HWID, as it did when they were banned.
    ...(reason === undefined ? [] : [{ type: 'banuser', params: { user, reason } }]),
  ];
  const first = made[0];
  const planned: Call[] = [
    { type: 'adduser', params: { user, sub: first?.name ?? placeholder!, expiry: LATER, pass: password } },
    ...made.slice(1).map((s) => ({ type: 'extend', params: { user, sub: s.name, expiry: LATER } })),
    ...(made.some((s) => s.at !== undefined) ? [{ type: 'usersub', params: { user } }] : []),
    ...(first === undefined ? [{ type: 'delsub', params: { user, sub: placeholder! } }] : []),
    ...after,
  ];
  return { after, planned };
}

/** Makes the user with their subscriptions (ended ones grant nothing, and no call takes a past expiry), then the rest. */
async function makeUser(io: ActionIO, u: NewUser): Promise<void> {
  const add = (sub: string, seconds: number): Call => ({ type: 'adduser', params: { user: u.user, sub, expiry: daysParam(seconds), pass: u.password } });
  const now = io.nowSeconds();
  const live = u.made.filter((s) => secondsLeft(s, now) >= 1);
  const [head, ...rest] = live;
  const stand = u.placeholder ?? u.made[0]?.name;
  await io.send(head === undefined ? add(stand!, 1) : add(head.name, secondsLeft(head, now)));
  for (const sub of rest) await io.send({ type: 'extend', params: { user: u.user, sub: sub.name, expiry: daysParam(secondsLeft(sub, io.nowSeconds())) } });
  if (head === undefined) await io.send({ type: 'delsub', params: { user: u.user, sub: stand! } });
  else if (live.some((s) => s.at !== undefined)) await settleMoments(io, u.user, live);
  for (const call of u.after) await io.send(call);
}

function createUser(d: Row, fallbackSub: string | undefined, plan: Planning, links: KeyLinks, unlinked: string[]): Action | undefined {
  const user = text(d.username);
  const id = idOf(d, 'username');
  const subs = wantedSubs(d);
  const byKey = (s: WantedSub): boolean => s.key !== undefined && links.bound.has(s.key);
  const made = subs.filter((s) => !byKey(s));
  for (const s of made) if (s.key !== undefined) unlinked.push(`${id} (${s.shownName}, key ${s.key})`);
  const placeholder = made.length === 0 ? fallbackSub ?? subs[0]?.name : undefined;
  if (made.length === 0 && placeholder === undefined) {
    plan.leftOut.push(`user ${id}: a user is made with a subscription, and the application has none.`);
    return undefined;
  }
  const customer = isLicenseCustomer(d, links);
  const password = d.password !== undefined ? text(d.password) : customer ? user : randomBytes(18).toString('base64url');
  const { after, planned } = userCalls(d, made, placeholder, password);
  const reason = banReason(d.banned);
  const detail = [
    ...(customer ? ['license customer: password = key'] : []),
    ...subs.map((s) => describeSub(s, byKey(s))),
    ...(customer ? [] : [d.password === undefined ? 'a random password' : 'password (set)']),
    ...(d.email === undefined ? [] : [`email ${shown(d, 'email')}`]),
    ...(d.hwid === undefined ? [] : [`hwid ${shown(d, 'hwid')}`]),
    ...(reason === undefined ? [] : [typeof d.banned === 'string' ? `banned (${shown(d, 'banned')})` : 'banned']),
    ...(plan.userDetail.get(user) ?? []),
  ];
  const newUser: NewUser = { user, password, made, placeholder, after };
  return {
    section: 'users',
    verb: 'create',
    id,
    detail,
    calls: planned,
    lane: `user:${user}`,
    ...(d.password === undefined && !customer ? { randomPassword: user } : {}),
    run: (io) => makeUser(io, newUser),
  };
}

/** An existing user: only what the file states and the API can change (ban, HWID). */
function updateUser(d: Row, c: Row, plan: Planning): Action | undefined {
  const user = text(d.username);
  const id = idOf(d, 'username');
  const detail: string[] = [];
  const calls: Call[] = [];
  if (d.hwid !== undefined && text(d.hwid) !== text(c.hwid)) {
    detail.push(`hwid: ${JSON.stringify(text(c.hwid))} → ${shown(d, 'hwid')}`);
    if (text(c.hwid) !== '') calls.push({ type: 'resetuser', params: { user } });
    if (text(d.hwid) !== '') calls.push({ type: 'addhwiduser', params: { user, hwid: text(d.hwid) } });
  }
  const have = text(c.banned);
  const reason = banReason(d.banned);
  if (d.banned === undefined) {
    if (have !== '') plan.notes.push(`user ${id} is banned on the server (${JSON.stringify(have)}) and the file does not say banned:, so the ban stays; banned: false lifts it.`);
  } else if (reason === undefined) {
    if (have !== '') {
      detail.push(`banned: ${JSON.stringify(have)} → false`);
      calls.push({ type: 'unbanuser', params: { user } });
    }
  } else if (d.banned === true ? have === '' : reason !== have) {
    detail.push(`banned: ${have === '' ? 'false' : JSON.stringify(have)} → ${d.banned === true ? 'true' : shown(d, 'banned')}`);
    calls.push({ type: 'banuser', params: { user, reason } });
  }
  return calls.length === 0 ? undefined : { section: 'users', verb: 'update', id, detail, calls };
}

/**
 * `subscriptionNames`: the application's subscriptions (on the server or made by the plan);
 * `links`: the keys the plan makes used (license-plan.ts), which grant their subscriptions again.
 */
export function planUsers(desired: Row[], current: Row[], plan: Planning, subscriptionNames: readonly string[] = [], links: KeyLinks = NO_LINKS): Action[] {
  const unlinked: string[] = [];
  const actions = keyed(desired, current, (r) => text(r.username), (r) => text(r.username), {
    create: (d) => createUser(d, subscriptionNames[0], plan, links, unlinked),
    update: (d, c) => updateUser(d, c, plan),
    remove: (c) => ({ section: 'users', verb: 'delete', id: text(c.username), detail: [], calls: [{ type: 'deluser', params: { user: text(c.username) } }] }),
  }, plan);
  if (unlinked.length > 0) {
    const what = unlinked.length === 1 ? '1 subscription comes back without the key that granted it' : `${unlinked.length} subscriptions come back without the keys that granted them`;
    plan.notes.push(`${what} (KEY - in users get): this run does not redeem the key for its user (it is used on the server already, and a used key cannot be redeemed again, or it is not in the file): ${unlinked.join(', ')}.`);
  }
  return actions;
}
