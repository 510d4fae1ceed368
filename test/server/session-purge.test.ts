/**
 * Opening a session (src/server/domain/sessions.ts `createSession`): the row it returns is the
 * row stored, and expired sessions are purged now and then, not at every `init` (an expired
 * session is never live, purged or not).
 */
import { describe, expect, it } from 'vitest';
import { createSession, deleteSession, findLiveSession, PURGE_EVERY_SECONDS, validateSession } from '../../src/server/domain/sessions.js';
import type { AppRow } from '../../src/server/domain/rows.js';
import { seedStore } from '../../src/server/store/seed.js';
import { openStore, type Store } from '../../src/server/store/store.js';
import { countTransactions } from './support/count-transactions.js';

const START = 1_800_000_000;

function storeWithApp(): { store: Store; app: AppRow } {
  const store = openStore(':memory:');
  const app = { ...seedStore(store, {}, START), sessionLength: 10 };
  return { store, app };
}

const rows = (store: Store): number => store.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions')!.n;

describe('createSession', () => {
  it('returns the row it stored, as a read of it gives', () => {
    const { store, app } = storeWithApp();
    const made = createSession(store, app, { enckey: 'key-1', ip: '127.0.0.1', api: '1.2' }, START);
    expect(made).toEqual(store.get('SELECT * FROM sessions WHERE id = ?', made.id));
    const plain = createSession(store, app, { ip: '::1', api: '1.3' }, START);
    expect(plain).toEqual(store.get('SELECT * FROM sessions WHERE id = ?', plain.id));
  });

  it(`purges expired sessions at most once every ${PURGE_EVERY_SECONDS} s of domain time`, () => {
    const { store, app } = storeWithApp();
    const first = createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START);
    // Expired 10 s later; an init 20 s later keeps its row, and it is not live.
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + 20);
    expect(rows(store)).toBe(2);
    expect(findLiveSession(store, app.id, first.id, START + 20)).toBeUndefined();
    // A minute after the last purge, the next init purges both expired ones.
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + PURGE_EVERY_SECONDS);
    expect(rows(store)).toBe(1);
    store.close();
  });

  it('opens a transaction only for an init that purges (a lone INSERT is atomic by itself)', () => {
    const { store, app } = storeWithApp();
    const transactions = countTransactions(store);
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START);
    expect(transactions.count).toBe(1);
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + 1);
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + 2);
    expect(transactions.count).toBe(1);
    expect(rows(store)).toBe(3);
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + PURGE_EVERY_SECONDS);
    expect(transactions.count).toBe(2);
    store.close();
  });
});

describe('findLiveSession', () => {
  it('sees every change to a session found before: validation, deletion, expiry, another app', () => {
    const { store, app } = storeWithApp();
    const made = createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START);
    expect(findLiveSession(store, app.id, made.id, START)).toEqual(made);
    expect(findLiveSession(store, app.id + 1, made.id, START)).toBeUndefined();
    validateSession(store, made.id, 'alice');
    expect(findLiveSession(store, app.id, made.id, START)).toMatchObject({ validated: 1, credential: 'alice' });
    expect(findLiveSession(store, app.id, made.id, START + 10)).toBeUndefined();
    // A session opened after one was found is found too.
    const other = createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START + 1);
    expect(findLiveSession(store, app.id, other.id, START + 1)).toEqual(other);
    deleteSession(store, app.id, made.id);
    expect(findLiveSession(store, app.id, made.id, START)).toBeUndefined();
    store.run('UPDATE sessions SET expiry = ? WHERE id = ?', START + 100, other.id);
    expect(findLiveSession(store, app.id, other.id, START + 50)?.expiry).toBe(START + 100);
    store.close();
  });

  it('keeps nothing read inside a transaction that is rolled back', () => {
    const { store, app } = storeWithApp();
    const made = createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, START);
    expect(findLiveSession(store, app.id, made.id, START)?.validated).toBe(0);
    expect(() =>
      store.tx(() => {
        validateSession(store, made.id, 'alice');
        expect(findLiveSession(store, app.id, made.id, START)?.validated).toBe(1);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(findLiveSession(store, app.id, made.id, START)?.validated).toBe(0);
    store.close();
  });
});
