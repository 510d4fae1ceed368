/** The planners on their own: what each difference between a file and a server becomes. */
import { describe, expect, it } from 'vitest';
import { planApp, planWhitelists } from '../../../src/state/records.js';
import { planning } from '../../../src/state/actions.js';
import { planLicenses } from '../../../src/state/license-plan.js';
import { countsLine, planLine } from '../../../src/state/plan.js';

const unused = (key: string, level: string, note: string, expires = '2592000') => ({ key, level, note, expires, status: 'Not Used' });

describe('planLicenses', () => {
  it('makes a fixed key with its own mask, and a batch until `count` exist', () => {
    const { actions } = planLicenses([{ key: 'K-1', level: 1, expiry: '30d' }, { count: 5, level: 2, expiry: '12h', note: 'b', mask: 'P-**' }], [unused('P-aa', '2', 'b'), unused('P-bb', '2', 'b')], planning());
    expect(actions.map((a) => [a.verb, a.id, a.calls])).toEqual([
      ['create', 'K-1', [{ type: 'add', params: { expiry: '30', level: '1', amount: '1', mask: 'K-1' } }]],
      ['create', '5 × level 2 note "b"', [{ type: 'add', params: { expiry: '0.5', level: '2', amount: '3', mask: 'P-**', note: 'b' } }]],
    ]);
  });

  it('updates note and duration of an unused key; replaces it for a new level; nothing when equal', () => {
    expect(planLicenses([{ key: 'K', level: 1, expiry: '30d', note: 'n' }], [unused('K', '1', 'n')], planning()).actions).toEqual([]);
    const update = planLicenses([{ key: 'K', level: 1, expiry: '1d', note: 'm' }], [unused('K', '1', 'n')], planning()).actions[0]!;
    expect(planLine(update)).toBe('~ update license K (note: "n" → "m", duration: "30d" → "1d")');
    expect(update.calls).toEqual([{ type: 'setnote', params: { key: 'K', note: 'm' } }, { type: 'edit', params: { key: 'K', expiry: '86400' } }]);
    // A replace tries the new key under another name first, and only then deletes the old one.
    expect(planLicenses([{ key: 'K', level: 2, expiry: '30d' }], [unused('K', '1', '')], planning()).actions[0]!.calls.map((c) => c.type)).toEqual(['add', 'del', 'del', 'add']);
  });

  it('with prune, deletes keys neither listed nor claimed by a batch', () => {
    const { actions } = planLicenses([{ count: 1, level: 1, expiry: 1, note: 'keep' }], [unused('A', '1', 'keep'), unused('B', '1', 'other')], planning({ prune: true }));
    expect(actions.map(planLine)).toEqual(['- delete license B']);
  });
});

describe('planApp and planWhitelists', () => {
  it('sends only the settings that differ, by their wire names', () => {
    const [action] = planApp({ hwidcheck: false, 'app-version': '1.0', 'msg-key-used': 'Used.' }, { 'hwid-lock': 'true', 'app-version': '1.0', 'msg-key-used': 'x' });
    expect(action!.calls).toEqual([{ type: 'updatesettings', params: { hwidcheck: 'false', keyused: 'Used.' } }]);
    expect(planApp({ enabled: true }, { enabled: 'true' })).toEqual([]);
  });

  it('ensures whitelists (no list to compare with), which the counts show apart', () => {
    const actions = planWhitelists([{ ip: '203.0.113.7' }], undefined);
    expect(actions[0]!.calls[0]!.okIf!.test('Failed to add whitelist!')).toBe(true);
    expect(countsLine({ create: 1, update: 0, replace: 0, delete: 0, ensure: 1 })).toBe('Plan: 1 to create, 0 to update, 0 to replace, 0 to delete, 1 to ensure.');
  });
});
