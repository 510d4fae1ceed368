/**
 * The planners as restore and apply use them: used keys bound to their user or left out,
 * create-only plans, replaces that try the new record first and put the old one back, users
 * with a random password, webhook URLs known only by their start, values from the environment
 * never shown, and every call checked before the first is sent.
 */
import { describe, expect, it } from 'vitest';
import { fakeIO as ioWith } from './fake-io.js';
import { ApiFailure } from '../../../src/errors.js';
import { callProblems, stateProblems } from '../../../src/state/check.js';
import { bindKey, compensation, planLicenses } from '../../../src/state/license-plan.js';
import { parseText } from '../../../src/state/load.js';
import { planLine, planState } from '../../../src/state/plan.js';
import type { SellerApi } from '../../../src/api/seller-api.js';
import { planning } from '../../../src/state/actions.js';
import { planVariables } from '../../../src/state/records.js';
import { HalfDoneReplace } from '../../../src/state/replace.js';
import { STATE_SCHEMA } from '../../../src/state/schema.js';
import { planUsers } from '../../../src/state/user-plan.js';
import { planWebhooks } from '../../../src/state/webhook-plan.js';

const NOW = 1_900_000_000;

const fakeIO = (answers: Parameters<typeof ioWith>[1] = {}): ReturnType<typeof ioWith> => ioWith(NOW, answers);

describe('used keys', () => {
  it('are made and bound to their user after the users, or left out when the user is nowhere (20.1)', () => {
    const plan = planning();
    const { actions, bindings } = planLicenses(
      [{ key: 'K-USED', level: 1, expiry: '30d', status: 'used', usedby: 'bob' }, { key: 'K-LOST', level: 1, expiry: '1d', status: 'used', usedby: 'ghost' }, { key: 'K-NEW', level: 1, expiry: '1d' }],
      [],
      plan,
      new Set(['bob']),
    );
    expect(actions.map(planLine)).toEqual(['+ create license K-NEW (level 1, duration 1d)']);
    expect(bindings.map(planLine)).toEqual(['+ create license K-USED (level 1, duration 30d, used by bob)']);
    expect(bindings[0]!.calls.map((c) => c.type)).toEqual(['add', 'usersub', 'assignkey', 'usersub', 'subtract']);
    expect(bindings[0]!.lane).toBe('user:bob');
    expect(plan.leftOut).toEqual(['license K-LOST: it was used by ghost, who is neither on the server nor in the file; a used key is never made again as unused (put ghost back first).']);
  });

  it('binding takes back what redeeming gave: an extension is subtracted, a new subscription deleted', async () => {
    const before = [{ id: '1', subscription: 'default', expiry: String(NOW + 100) }];
    expect(compensation('bob', before, [{ id: '1', subscription: 'default', expiry: String(NOW + 100 + 2_592_000) }], NOW)).toEqual([
      { type: 'subtract', params: { user: 'bob', sub: 'default', seconds: '2592000' } },
    ]);
    expect(compensation('bob', before, [...before, { id: '2', subscription: 'pro', expiry: String(NOW + 50) }], NOW)).toEqual([{ type: 'delsub', params: { user: 'bob', sub: 'pro' } }]);
    // A granted row beside an ended one of the same name: only its time is taken, by name the ended one would go too.
    const ended = [{ id: '1', subscription: 'pro', expiry: String(NOW - 10) }];
    expect(compensation('bob', ended, [...ended, { id: '2', subscription: 'pro', expiry: String(NOW + 50) }], NOW)).toEqual([{ type: 'subtract', params: { user: 'bob', sub: 'pro', seconds: '50' } }]);

    let subs = before;
    const io = fakeIO({
      usersub: () => ({ success: true, subs }),
      assignkey: () => {
        subs = [{ id: '1', subscription: 'default', expiry: String(NOW + 100 + 3600) }];
        return { success: true };
      },
    });
    await bindKey(io, 'K', 'bob');
    expect(io.sent.map((c) => `${c.type} ${Object.values(c.params).join(' ')}`)).toEqual(['usersub bob', 'assignkey K bob', 'usersub bob', 'subtract bob default 3600']);
  });

  it('a restore (create-only) leaves every key on the server as it is', () => {
    const current = [{ key: 'K', level: '1', expires: '60', status: 'Not Used', note: '' }];
    const desired = [{ key: 'K', level: 2, expiry: '30d', status: 'banned', banreason: 'x' }];
    expect(planLicenses(desired, current, planning({ createOnly: true }))).toEqual({ actions: [], bindings: [], bound: new Set() });
    expect(planLicenses(desired, current, planning()).actions.map(planLine)).toEqual(['~ update license K (duration: "1m" → "30d", status: unused → banned)']);
  });
});

describe('replace', () => {
  it('tries the new record under another name, deletes, creates; a refusal after the delete puts the old one back (20.10)', async () => {
    const [replace] = planVariables([{ name: 'motd', value: 'hi', authed: true }], [{ varid: 'motd', msg: 'old', authed: '0' }], planning());
    // The new variable has the file's value too, and the plan says so (28.5).
    expect(planLine(replace!)).toBe('± replace variable motd (authed: false → true, value: "old" → "hi")');
    let adds = 0;
    const io = fakeIO({
      addvar: () => {
        adds++;
        if (adds === 2) throw new ApiFailure('Failed to create variable!', {}, 200);
        return { success: true };
      },
    });
    const error = await replace!.run!(io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HalfDoneReplace);
    expect((error as HalfDoneReplace).message).toBe('variable motd was deleted, the new one was refused (Failed to create variable!), and the old one was put back as it was.');
    expect(io.sent.map((c) => c.type)).toEqual(['addvar', 'delvar', 'delvar', 'addvar', 'addvar']);
    expect(io.sent[4]!.params).toEqual({ name: 'motd', data: 'old', authed: '0' });

    // Refused at the probe: nothing was deleted.
    const probeRefused = fakeIO({ addvar: () => { throw new ApiFailure('Data is too long.', {}, 200); } });
    await expect(replace!.run!(probeRefused)).rejects.toThrow('Data is too long.');
    expect(probeRefused.sent.map((c) => c.type)).toEqual(['addvar']);
  });
});

describe('users', () => {
  it('get a random password when the file gives none, and the plan says so without showing any password (20.8)', async () => {
    const [withNone, withOne] = planUsers(
      [{ username: 'bob', subscriptions: [{ name: 'default', expiry: '2030-01-02T00:00:00Z' }], hwid: 'H' }, { username: 'amy', password: 'pw-secret', subscription: 'default', expiry: '30d' }],
      [],
      planning(),
      ['default'],
    );
    expect(planLine(withNone!)).toBe('+ create user bob (subscription default until 2030-01-02T00:00:00Z, a random password, hwid "H")');
    expect(withNone!.randomPassword).toBe('bob');
    expect(planLine(withOne!)).toBe('+ create user amy (subscription default, expiry 30d, password (set))');
    const io = fakeIO({ usersub: () => ({ success: true, subs: [{ subscription: 'default', expiry: String(Date.UTC(2030, 0, 2) / 1000 + 1) }] }) });
    await withNone!.run!({ ...io, nowSeconds: () => Date.UTC(2030, 0, 1) / 1000 });
    const add = io.sent[0]!;
    expect(add).toMatchObject({ type: 'adduser', params: { user: 'bob', sub: 'default', expiry: '1' } });
    expect(add.params.pass).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // The moment was missed by a second: put right.
    expect(io.sent.slice(1).map((c) => `${c.type} ${Object.values(c.params).join(' ')}`)).toEqual(['usersub bob', 'subtract bob default 1', 'addhwiduser bob H']);
  });
});

describe('webhooks', () => {
  it('are never made from the start of a URL; --url gives the whole one (20.3)', () => {
    const cut = [{ id: 'payhook', url: 'https://hooks.example', authed: true, truncated: true }];
    const plan = planning();
    expect(planWebhooks(cut, [], plan)).toEqual([]);
    expect(plan.leftOut).toEqual(['webhook payhook: only the start of its URL is known ("https://hooks.example…"), so it is not created; give the whole URL with --url payhook=URL.']);
    const given = planWebhooks(cut, [], planning({ urls: new Map([['payhook', 'https://hooks.example.test/pay']]) }));
    expect(given[0]!.calls).toEqual([{ type: 'addwebhook', params: { webid: 'payhook', baseurl: 'https://hooks.example.test/pay', authed: '1' } }]);
  });
});

describe('values from the environment (21.2)', () => {
  it('are never printed by a plan', () => {
    const file = 'licenses:\n  - { key: !env KEY, level: 1, expiry: 1d, note: !env NOTE }\nvariables:\n  v: { value: !env VALUE }\napp:\n  download-url: !env URL\n';
    const { value } = parseText('f.yaml', file, STATE_SCHEMA, { env: { KEY: 'SECRET-KEY', NOTE: 'secret-note', VALUE: 'secret-value', URL: 'https://secret.example/x' }, stateAt: [[]] });
    const { actions } = planLicenses(value.licenses as Record<string, unknown>[], [], planning());
    const vars = planVariables([{ name: 'v', ...(value.variables as Record<string, Record<string, unknown>>).v }], [], planning());
    const lines = [...actions, ...vars].map(planLine);
    expect(lines).toEqual(['+ create license (from $KEY) (level 1, duration 1d, note (from $NOTE))', '+ create variable v (value (from $VALUE), authed false)']);
    expect(actions[0]!.calls[0]!.params).toMatchObject({ mask: 'SECRET-KEY', note: 'secret-note' });
  });
});

describe('checks before the first call', () => {
  it('refuse what the server would, naming the record', () => {
    const actions = planVariables([{ name: 'v', value: 'x'.repeat(1001) }], [], planning());
    expect(callProblems(actions)).toEqual(['variables v: addvar data: At most 1000 characters (this has 1001).']);
    expect(stateProblems({ licenses: [{ key: 'K', expiry: '1d', status: 'used' }], users: [{ username: 'u' }] }).map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual([
      'licenses.0.used_by: a used key needs used_by (who used it)',
      'users.0.subscription: a user needs subscription and expiry, or subscriptions',
    ]);
  });
});

describe('planState', () => {
  it('leaves out a user whose subscription is gone, and their variables with them (the run would stop at setvar)', async () => {
    const lists: Record<string, Record<string, unknown>> = {
      fetchallsubs: { subs: [{ name: 'default', level: '1' }] },
      fetchallusers: { users: [] },
      fetchalluservars: { vars: [] },
    };
    const api = { call: (type: string) => Promise.resolve({ success: true, ...lists[type] }) } as unknown as SellerApi;
    const plan = planning({ createOnly: true });
    const actions = await planState(api, {
      users: [{ username: 'amy', subscription: 'default', expiry: '1d' }, { username: 'zed', subscriptions: [{ name: 'gone', expiry: '1d' }] }],
      uservars: [{ username: 'amy', name: 'a', value: '1' }, { username: 'zed', name: 'z', value: '2' }],
    }, plan);
    expect(actions.map(planLine)).toEqual(['+ create user amy (subscription default, expiry 1d, a random password)', '+ create uservar amy/a (value "1")']);
    expect(plan.leftOut).toEqual([
      'user zed: there is no subscription "gone" on the server or in the file (the subscriptions are default).',
      'user variables of zed: zed is neither on the server nor made by this run.',
    ]);
  });
});
