/**
 * What issue 28 asked the state engine to carry or name: license customers come back with their
 * key as password, a key grants again the subscription it granted, `banned: false` unbans, a
 * read-only user variable stays read-only, what cannot be read back is named with its count, and
 * a plan line names every field its calls change.
 */
import { describe, expect, it } from 'vitest';
import { fakeIO as ioWith } from './fake-io.js';
import type { Call } from '../../../src/state/actions.js';
import { planning } from '../../../src/state/actions.js';
import { stateProblems } from '../../../src/state/check.js';
import { stateRecords } from '../../../src/state/export.js';
import { bindKey, planLicenses } from '../../../src/state/license-plan.js';
import { planLine, planState } from '../../../src/state/plan.js';
import { planUservars, planVariables } from '../../../src/state/records.js';
import { planUsers, wantedSubs } from '../../../src/state/user-plan.js';
import { planWebhooks } from '../../../src/state/webhook-plan.js';
import { gapLines, userGaps } from '../../../src/state/unreadable.js';
import type { SellerApi } from '../../../src/api/seller-api.js';

const NOW = 1_900_000_000;
const AT = '2030-03-18T17:46:40Z';
const AT_SECONDS = Date.parse(AT) / 1000;

const fakeIO = (answers: Parameters<typeof ioWith>[1] = {}): ReturnType<typeof ioWith> => ioWith(NOW, answers);

const line = (call: Call): string => `${call.type} ${Object.values(call.params).join(' ')}`;

/** A seller API answering the lists from `lists` (by type) and success to anything else. */
function listingApi(lists: Record<string, Record<string, unknown>>): SellerApi {
  return { call: (type: string) => Promise.resolve({ success: true, ...lists[type] }) } as unknown as SellerApi;
}

describe('license customers (28.1)', () => {
  it('a user named after a key they used comes back with the key as password, and the plan says so', async () => {
    const [customer] = planUsers([{ username: 'KEY-1', subscriptions: [{ name: 'default', expiry: AT, key: 'KEY-1' }] }], [], planning(), ['default']);
    expect(planLine(customer!)).toBe(`+ create user KEY-1 (license customer: password = key, subscription default until ${AT})`);
    expect(customer!.randomPassword).toBeUndefined();
    const io = fakeIO({ usersub: () => ({ subs: [{ subscription: 'default', expiry: String(AT_SECONDS) }] }) });
    await customer!.run!(io);
    expect(io.sent[0]).toMatchObject({ type: 'adduser', params: { user: 'KEY-1', pass: 'KEY-1' } });
  });

  it('also when only the file\'s licenses say the key of their name is theirs; a given password wins; others get a random one', async () => {
    const api = listingApi({ fetchallsubs: { subs: [{ name: 'default', level: '1' }] } });
    const actions = await planState(api, {
      licenses: [{ key: 'KEY-2', duration: '30d', status: 'used', used_by: 'KEY-2' }],
      users: [
        { username: 'KEY-2', subscription: 'default', expiry: '30d' },
        { username: 'bob', subscription: 'default', expiry: '30d' },
        { username: 'KEY-3', password: 'chosen', subscription: 'default', expiry: '30d' },
      ],
    }, planning());
    const users = actions.filter((a) => a.section === 'users');
    expect(users.map(planLine)).toEqual([
      '+ create user KEY-2 (license customer: password = key, subscription default, expiry 30d)',
      '+ create user bob (subscription default, expiry 30d, a random password)',
      '+ create user KEY-3 (subscription default, expiry 30d, password (set))',
    ]);
    expect(users.map((a) => a.randomPassword)).toEqual([undefined, 'bob', undefined]);
  });
});

describe('the key that granted a subscription (28.9)', () => {
  it('is written by export and read by the schema', () => {
    const { rows } = stateRecords('users', [{ username: 'K' }], NOW * 1000, { subscriptions: { K: [{ id: '1', subscription: 'default', expiry: String(AT_SECONDS), key: 'K', paused: '0' }] } });
    expect(rows).toEqual([{ username: 'K', subscriptions: [{ name: 'default', expiry: AT, key: 'K' }] }]);
    expect(stateProblems({ users: rows })).toEqual([]);
  });

  it('is left to the binding when the run makes the key used: the user is made without it, the key grants it and its end is set', async () => {
    const api = listingApi({ fetchallsubs: { subs: [{ name: 'default', level: '1' }] } });
    const actions = await planState(api, {
      licenses: [{ key: 'K', duration: '30d', status: 'used', used_by: 'K' }],
      users: [{ username: 'K', subscriptions: [{ name: 'default', expiry: AT, key: 'K' }] }],
    }, planning());
    expect(actions.map(planLine)).toEqual([
      `+ create user K (license customer: password = key, subscription default until ${AT} (granted by key K))`,
      '+ create license K (level 1, duration 30d, used by K)',
    ]);
    // The user is made with the application's first subscription for a second, deleted again.
    const made = fakeIO();
    await actions[0]!.run!(made);
    expect(made.sent.map((c) => `${c.type} ${c.params.sub} ${c.params.pass ?? ''}`.trim())).toEqual(['adduser default K', 'delsub default']);

    // The key grants a new row: its end is set to the file's moment, not taken back.
    let subs: Record<string, unknown>[] = [];
    const io = fakeIO({
      usersub: () => ({ subs }),
      assignkey: () => {
        subs = [{ id: '9', subscription: 'default', expiry: String(NOW + 2_592_000), key: 'K' }];
        return {};
      },
    });
    await bindKey(io, 'K', 'K', wantedSubs({ username: 'K', subscriptions: [{ name: 'default', expiry: AT, key: 'K' }] }));
    expect(io.sent.map(line)).toEqual(['usersub K', 'assignkey K K', 'usersub K', `subtract K default ${NOW + 2_592_000 - AT_SECONDS}`]);
  });

  it('is said, with the count, when the run cannot make the key grant it again (the key is used on the server already)', async () => {
    const api = listingApi({ fetchallsubs: { subs: [{ name: 'default', level: '1' }] }, fetchallkeys: { keys: [{ key: 'K', status: 'Used', usedby: 'K', level: '1', expires: '60' }] } });
    const plan = planning({ createOnly: true });
    const actions = await planState(api, {
      licenses: [{ key: 'K', duration: '1m', status: 'used', used_by: 'K' }],
      users: [{ username: 'K', subscriptions: [{ name: 'default', expiry: AT, key: 'K' }] }],
    }, plan);
    expect(actions.map(planLine)).toEqual([`+ create user K (license customer: password = key, subscription default until ${AT})`]);
    expect(plan.notes).toEqual(['1 subscription comes back without the key that granted it (KEY - in users get): this run does not redeem the key for its user (it is used on the server already, and a used key cannot be redeemed again, or it is not in the file): K (default, key K).']);
  });
});

describe('bans a state file can say (28.9)', () => {
  const banned = { username: 'carol', banned: 'fraud' };
  it('banned: false unbans, true bans, a reason bans or changes the reason; left out, the ban stays and is said', () => {
    const plan = planning();
    const lines = (row: Record<string, unknown>, current: Record<string, unknown>) => planUsers([{ subscription: 'default', expiry: '1d', ...row }], [current], plan).map((a) => `${planLine(a)} ${a.calls.map(line).join('; ')}`);
    expect(lines({ username: 'carol', banned: false }, banned)).toEqual(['~ update user carol (banned: "fraud" → false) unbanuser carol']);
    expect(lines({ username: 'dan', banned: true }, { username: 'dan', banned: null })).toEqual(['~ update user dan (banned: false → true) banuser dan Banned']);
    expect(lines({ username: 'carol', banned: true }, banned)).toEqual([]);
    expect(lines({ username: 'carol', banned: 'chargeback' }, banned)).toEqual(['~ update user carol (banned: "fraud" → "chargeback") banuser carol chargeback']);
    expect(lines({ username: 'dan', banned: false }, { username: 'dan', banned: null })).toEqual([]);
    expect(lines({ username: 'carol' }, banned)).toEqual([]);
    expect(plan.notes).toEqual(['user carol is banned on the server ("fraud") and the file does not say banned:, so the ban stays; banned: false lifts it.']);
    expect(stateProblems({ users: [{ username: 'carol', subscription: 'default', expiry: '1d', banned: false }] })).toEqual([]);
  });

  it('a new user with banned: false is not banned', () => {
    const [made] = planUsers([{ username: 'eve', subscription: 'default', expiry: '1d', banned: false }], [], planning());
    expect(made!.calls.map((c) => c.type)).toEqual(['adduser']);
  });
});

describe('read-only user variables (28.2)', () => {
  it('come out of a sandbox export as readonly: true and are compared where the server lists the flag', () => {
    expect(stateRecords('uservars', [{ user: 'bob', name: 'discord', data: 'bob#1', readOnly: '1' }, { user: 'bob', name: 'theme', data: 'dark', readOnly: '0' }], 0).rows).toEqual([
      { username: 'bob', name: 'discord', value: 'bob#1', readonly: true },
      { username: 'bob', name: 'theme', value: 'dark' },
    ]);
    const [create] = planUservars([{ username: 'bob', name: 'discord', value: 'bob#1', readonly: true }], [], planning());
    expect(planLine(create!)).toBe('+ create uservar bob/discord (value "bob#1", read-only)');
    expect(create!.calls[0]!.params).toMatchObject({ readOnly: '1' });
    const [update] = planUservars([{ username: 'bob', name: 'discord', value: 'bob#1', readonly: true }], [{ user: 'bob', name: 'discord', data: 'bob#1', readOnly: '0' }], planning());
    expect(planLine(update!)).toBe('~ update uservar bob/discord (readonly: false → true)');
    // The hosted list has no flag: nothing to compare it with.
    expect(planUservars([{ username: 'bob', name: 'discord', value: 'bob#1', readonly: true }], [{ user: 'bob', name: 'discord', data: 'bob#1' }], planning())).toEqual([]);
  });
});

describe('what cannot be read back is named, one line a field with its count (28.2)', () => {
  const users = [
    { username: 'K', ip: '203.0.113.1', '2fa': '0', hasemail: '0' },
    { username: 'bob', ip: null, '2fa': '0', hasemail: '1' },
    { username: 'tina', ip: '203.0.113.2', '2fa': '1', hasemail: '0' },
    { username: 'hosted', ip: null, email: 'a9993e364706816aba3e25717850c26c9cd0d89d' },
  ];
  const subscriptions = { K: [{ subscription: 'default', key: 'K' }] };

  it('at delete time, with how to give each back', () => {
    expect(gapLines(userGaps(users, subscriptions, [{ user: 'bob', name: 'a', data: 'x' }, { user: 'bob', name: 'b', data: 'y', readOnly: '1' }]), 'backup')).toEqual([
      'Not in the backup: the passwords of 3 users (bob, tina, hosted), which the seller API cannot read; kactl restore gives them a random one; set it with kactl users set-password USER --password-stdin.',
      '1 license customer (K): kactl restore gives them their key as password again, as client license made them (client license --key KEY signs them in).',
      'Not in the backup: the email addresses of 2 users (bob, hosted), which the seller API cannot read; give them to kactl restore with --email USER=ADDRESS.',
      'Not in the backup: the 2FA secrets of 1 user (tina), which no seller call reads or sets; they come back with 2FA off and turn it on again (kactl client 2fa enable).',
      'Not in the backup: the IPs of 2 users (K, tina), which no seller call sets; each comes back at the user\'s next login.',
      'Not in the backup: whether 1 user variable is read-only (the server does not list it); they come back writable; mark them again with kactl uservars set USER --name NAME --data VALUE --read-only.',
    ]);
  });

  it('in an export, with the state file key that gives each back', () => {
    const lines = gapLines(userGaps(users.slice(1, 3), {}, []), 'export');
    expect(lines).toContain('Not in the export: the email addresses of 1 user (bob), which the seller API cannot read; add email: ADDRESS to their entry before kactl apply.');
    expect(lines.some((l) => l.includes('tina'))).toBe(true);
  });
});

describe('a plan line names every field its calls change (28.5)', () => {
  it('a key replaced for its level names level, duration and note, and keeps a note the file leaves out', () => {
    const current = [{ key: 'K', level: '1', expires: '2592000', note: 'old', status: 'Not Used' }];
    const [replace] = planLicenses([{ key: 'K', level: 2, duration: '1d', note: 'new' }], current, planning()).actions;
    expect(planLine(replace!)).toBe('± replace license K (level: 1 → 2, note: "old" → "new", duration: "30d" → "1d")');
    expect(replace!.calls.at(-1)).toEqual({ type: 'add', params: { expiry: '1', level: '2', amount: '1', mask: 'K', note: 'new' } });
    const [kept] = planLicenses([{ key: 'K', level: 2, duration: '30d' }], current, planning()).actions;
    expect(planLine(kept!)).toBe('± replace license K (level: 1 → 2)');
    expect(kept!.calls.at(-1)!.params.note).toBe('old');
  });

  it('a variable replaced for authed names its new value; a webhook replaced keeps what the file leaves out', () => {
    const [variable] = planVariables([{ name: 'v', value: 'new', authed: true }], [{ varid: 'v', msg: 'old', authed: '0' }], planning());
    expect(planLine(variable!)).toBe('± replace variable v (authed: false → true, value: "old" → "new")');
    const [hook] = planWebhooks([{ id: 'h', url: 'https://new.example.test/x' }], [{ webid: 'h', short_baselink: 'https://old.example', useragent: 'Bot', authed: '1' }], planning());
    expect(hook!.calls.at(-1)).toEqual({ type: 'addwebhook', params: { webid: 'h', baseurl: 'https://new.example.test/x', authed: '1', ua: 'Bot' } });
  });

  it('a banned key bound to a user says its status changes', () => {
    const { bindings } = planLicenses([{ key: 'K', duration: '30d', status: 'used', used_by: 'bob' }], [{ key: 'K', level: '1', expires: '2592000', note: '', status: 'Banned', banned: 'x', usedby: null }], planning(), new Set(['bob']));
    expect(planLine(bindings[0]!)).toBe('~ update license K (used by: nobody → bob, status: banned → used)');
  });
});
