/**
 * Server rows → state file records (what `export` writes and `restore` applies): used keys stay
 * used with their exact duration, users keep their subscriptions as moments, webhook URLs the
 * list cuts short are marked, and nothing comes out that `apply` would refuse or read otherwise.
 */
import { describe, expect, it } from 'vitest';
import { stateAsYaml, stateRecords } from '../../../src/state/export.js';
import { escapeDollars, parseText } from '../../../src/state/load.js';
import { STATE_SCHEMA } from '../../../src/state/schema.js';

const NOW_MS = Date.UTC(2030, 0, 1);
const NOW = NOW_MS / 1000;

const key = (fields: Record<string, unknown>) => ({ id: '1', note: null, level: '1', genby: 'SellerAPI', gendate: '1', usedon: null, usedby: null, banned: null, status: 'Not Used', expires: '2592000', ...fields });

describe('stateRecords for licenses', () => {
  it('writes a used key as used, bound to its user, with its duration (20.1: it came back as a 1-day unused key)', () => {
    const { rows, refused } = stateRecords('licenses', [key({ key: 'K-USED', status: 'Used', usedby: 'bob', usedon: String(NOW - 10) })], NOW_MS);
    expect(refused).toEqual([]);
    // kactl's names for a key's fields (23.10), as `licenses list -o csv` prints them.
    expect(rows).toEqual([{ key: 'K-USED', level: 1, duration: '30d', status: 'used', used_by: 'bob' }]);
  });

  it('keeps durations exact and writes banned keys with their reason', () => {
    const { rows } = stateRecords('licenses', [key({ key: 'A', expires: '3601', note: 'n' }), key({ key: 'B', status: 'Banned', banned: 'chargeback', expires: '43200' })], NOW_MS);
    expect(rows).toEqual([
      { key: 'A', level: 1, duration: '3601s', note: 'n' },
      { key: 'B', level: 1, duration: '12h', status: 'banned', ban_reason: 'chargeback' },
    ]);
  });

  it('leaves out, with a reason, what no state file can hold (21.17: 0d, 1e+300d, .nan were written)', () => {
    const { rows, refused } = stateRecords('licenses', [
      key({ key: 'ZERO', expires: '0' }),
      key({ key: 'HUGE', expires: '8.64e304' }),
      key({ key: 'NAN', expires: 'soon' }),
      key({ key: 'LEVEL', level: 'gold' }),
      key({ key: 'PAUSED', status: 'Paused' }),
      key({ key: 'FINE' }),
    ], NOW_MS);
    expect(rows.map((r) => r.key)).toEqual(['FINE']);
    expect(refused).toHaveLength(5);
    expect(refused[0]).toMatch(/^license ZERO: duration: "0d" is not valid here .*; no state file can hold it\.$/);
    expect(refused[4]).toBe('license PAUSED: paused, which the seller API cannot make.');
    // What is written, apply reads back whole.
    const yaml = stateAsYaml({ licenses: rows });
    expect(parseText('x.yaml', yaml, STATE_SCHEMA, { stateAt: [[]] }).value).toEqual({ licenses: [{ key: 'FINE', level: 1, duration: '30d' }] });
  });
});

describe('stateRecords for users and webhooks', () => {
  it('gives each user their live subscriptions as moments, HWID and ban; ended ones are left out, paused ones said', () => {
    const subs = {
      bob: [
        { id: '1', subscription: 'default', expiry: String(NOW + 86_400), paused: '0' },
        { id: '2', subscription: 'old', expiry: String(NOW - 5), paused: '0' },
        { id: '3', subscription: 'pro', expiry: '3600', paused: '1' },
      ],
    };
    const { rows, notes } = stateRecords('users', [{ username: 'bob', hwid: 'H-1', banned: 'fraud', ip: '203.0.113.5' }], NOW_MS, { subscriptions: subs });
    expect(rows).toEqual([{ username: 'bob', subscriptions: [{ name: 'default', expiry: '2030-01-02T00:00:00Z' }], hwid: 'H-1', banned: 'fraud' }]);
    expect(notes).toEqual(['user bob: 1 paused subscription is left out (the seller API makes no paused subscription).']);
    // A backup without subscriptions cannot make the user: said, not guessed (20.2 restored them as "default, 1d").
    expect(stateRecords('users', [{ username: 'eve' }], NOW_MS).refused).toEqual(['user eve: the backup holds no subscriptions for them, and a user is made with one.']);
  });

  it('marks a webhook URL the list shows only the start of (20.3)', () => {
    const { rows } = stateRecords('webhooks', [
      { webid: 'payhook', short_baselink: 'https://hooks.example', useragent: 'KeyAuth', authed: '1' },
      { webid: 'short', short_baselink: 'https://a.test/x', useragent: '', authed: '0' },
    ], NOW_MS);
    expect(rows).toEqual([
      { id: 'payhook', url: 'https://hooks.example', useragent: 'KeyAuth', authed: true, truncated: true },
      { id: 'short', url: 'https://a.test/x', authed: false },
    ]);
  });
});

describe('escapeDollars', () => {
  it('writes every $ as $$, which the loader reads back as it was (21.2)', () => {
    const state = escapeDollars({ uservars: [{ username: 'eve', name: 'n', value: '${KACTL_SELLER_KEY} $5 $$' }] }) as Record<string, unknown>;
    expect(state).toEqual({ uservars: [{ username: 'eve', name: 'n', value: '$${KACTL_SELLER_KEY} $$5 $$$$' }] });
    const read = parseText('x.yaml', stateAsYaml(state), STATE_SCHEMA, { env: { KACTL_SELLER_KEY: 'the-seller-key' }, stateAt: [[]] });
    expect(JSON.stringify(read.value)).toBe(JSON.stringify({ uservars: [{ username: 'eve', name: 'n', value: '${KACTL_SELLER_KEY} $5 $$' }] }));
  });
});

describe("a license's fields in a state file (23.10)", () => {
  it('are named as the list names them; the names create, the wire and older files used are the same fields', async () => {
    const { stateProblems } = await import('../../../src/state/check.js');
    const { canonicalLicense } = await import('../../../src/state/license-plan.js');
    expect(canonicalLicense({ key: 'K', expiry: '1d', status: 'banned', usedby: 'bob', banreason: 'x' })).toEqual({ key: 'K', duration: '1d', status: 'banned', used_by: 'bob', ban_reason: 'x' });
    expect(canonicalLicense({ key: 'K', expires: '1d', banned: 'x' })).toEqual({ key: 'K', duration: '1d', ban_reason: 'x' });
    expect(stateProblems({ licenses: [{ key: 'K', duration: '1d', status: 'used', used_by: 'bob' }, { key: 'L', expiry: '1d', status: 'banned', usedby: 'amy', banreason: 'x' }] })).toEqual([]);
    const twice = stateProblems({ licenses: [{ key: 'K', duration: '1d', expiry: '2d' }] });
    expect(twice.map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual(['licenses.0.expiry: duration and expiry are the same field: give one']);
    expect(stateProblems({ licenses: [{ key: 'K' }] }).map((p) => p.message)).toEqual(['"duration" is required (how long the key grants, e.g. 30d; expiry is the same field)']);
  });
});
