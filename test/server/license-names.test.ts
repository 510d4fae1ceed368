/**
 * Whether a user name is a license key (src/server/domain/shown.ts `isLicenseName`), which every
 * client request's record asks: answers are kept between writes of the licenses table, so a
 * key added, deleted or rolled back is seen at the next question.
 */
import { describe, expect, it } from 'vitest';
import { deleteLicense, generateLicenses } from '../../src/server/domain/licenses.js';
import { isLicenseName } from '../../src/server/domain/shown.js';
import { openTestStore } from '../helpers/sandbox.js';

const NOW = 1_800_000_000;

describe('isLicenseName', () => {
  it('follows keys added and deleted after an answer was kept', () => {
    const { store, app } = openTestStore(NOW);
    const made = generateLicenses(store, app.id, { amount: 1, expires: 86_400 }, NOW);
    if (!made.ok) throw new Error(made.message);
    const [key] = made.value as [string];
    expect(isLicenseName(store, app.id, key)).toBe(true);
    expect(isLicenseName(store, app.id, 'alice')).toBe(false);
    expect(isLicenseName(store, app.id + 1, key)).toBe(false);
    deleteLicense(store, app.id, key);
    expect(isLicenseName(store, app.id, key)).toBe(false);
    store.run('INSERT INTO licenses (appId, key, expires, gendate) VALUES (?, ?, 86400, ?)', app.id, 'alice', NOW);
    expect(isLicenseName(store, app.id, 'alice')).toBe(true);
    store.close();
  });

  it('keeps nothing read inside a transaction that is rolled back', () => {
    const { store, app } = openTestStore(NOW);
    expect(() =>
      store.tx(() => {
        store.run('INSERT INTO licenses (appId, key, expires, gendate) VALUES (?, ?, 86400, ?)', app.id, 'bob', NOW);
        expect(isLicenseName(store, app.id, 'bob')).toBe(true);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(isLicenseName(store, app.id, 'bob')).toBe(false);
    store.close();
  });
});
