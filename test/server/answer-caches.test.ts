/**
 * What the sandbox keeps in memory between requests to answer faster (the client API's app row,
 * seller list answers, spliced pre-encoded JSON) must never show data older than the store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { retain } from '../../src/server/store/native-handles.js';
import { describe, expect, it } from 'vitest';
import { findAppByNameAndOwnerid } from '../../src/server/domain/apps.js';
import { createSession } from '../../src/server/domain/sessions.js';
import { seedStore } from '../../src/server/store/seed.js';
import { openStore } from '../../src/server/store/store.js';
import { EncodedJson, asciiJson, jsonBytes, phpJson } from '../../src/server/http/json-encode.js';
import { expectEmptyList, expectFail, makeKey, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

describe('pre-encoded JSON spliced into an answer', () => {
  it('gives the same bytes as encoding the whole value, with non-ASCII and slashes escaped alike', () => {
    const rows = [{ note: 'März/2 😀', n: 1 }, { note: null, list: ['a/b'] }];
    const whole = { success: true, message: 'ünïcode / text', keys: rows, after: 'x/y' };
    const spliced = { ...whole, keys: new EncodedJson(asciiJson(rows)) };
    for (const escapeSlashes of [true, false]) {
      const expected = escapeSlashes ? phpJson(whole) : asciiJson(whole);
      expect(jsonBytes(spliced, escapeSlashes).toString('latin1')).toBe(expected);
      expect(escapeSlashes ? phpJson(spliced) : asciiJson(spliced)).toBe(expected);
      expect(jsonBytes(whole, escapeSlashes).toString('latin1')).toBe(expected);
    }
    expect(phpJson({ a: new EncodedJson('[1]'), b: new EncodedJson('"/"') })).toBe('{"a":[1],"b":"\\/"}');
  });

  it('keeps the last whole answer around one list, and makes a new one for another envelope', () => {
    const list = new EncodedJson(asciiJson([{ key: 'A/1' }]));
    const answer = (message: string, escapeSlashes: boolean): string => jsonBytes({ success: true, message, keys: list }, escapeSlashes).toString('latin1');
    for (let round = 0; round < 2; round += 1) {
      expect(answer('first', true)).toBe('{"success":true,"message":"first","keys":[{"key":"A\\/1"}]}');
      expect(answer('second', true)).toBe('{"success":true,"message":"second","keys":[{"key":"A\\/1"}]}');
      expect(answer('second', false)).toBe('{"success":true,"message":"second","keys":[{"key":"A/1"}]}');
    }
    const again = jsonBytes({ success: true, message: 'same', keys: list }, true);
    expect(jsonBytes({ success: true, message: 'same', keys: list }, true)).toBe(again);
  });
});

describe('fetchallkeys answered from memory', () => {
  it('follows every change of the keys, through the seller API or straight to the database', async () => {
    const sb = await startSellerSandbox();
    const first = await makeKey(sb, { note: 'März/2' });
    const listed = await sb.seller('fetchallkeys');
    expect(listed.text).toContain('"note":"M\\u00e4rz\\/2"');
    expect(await sb.seller('fetchallkeys')).toMatchObject({ text: listed.text });

    await sellerOk(sb, 'ban', { key: first, reason: 'chargeback' });
    const banned = (await sellerOk(sb, 'fetchallkeys'))['keys'] as Array<Record<string, unknown>>;
    expect(banned).toEqual([expect.objectContaining({ key: first, status: 'Banned', banned: 'chargeback' })]);

    const second = await makeKey(sb);
    expect(((await sellerOk(sb, 'fetchallkeys'))['keys'] as Array<{ key: string }>).map((row) => row.key)).toEqual([first, second]);

    sb.store.db.prepare('DELETE FROM licenses WHERE key = ?').run(first);
    expect(((await sellerOk(sb, 'fetchallkeys'))['keys'] as Array<{ key: string }>).map((row) => row.key)).toEqual([second]);
    sb.store.db.prepare('DELETE FROM licenses').run();
    expectEmptyList(await sb.seller('fetchallkeys'), 'No keys found');
    await sb.close();
  });
});

describe('the client API app found from memory', () => {
  it('sees a ban and a rename written straight to the database', async () => {
    const sb = await startSellerSandbox();
    await sb.init();
    sb.store.db.prepare('UPDATE apps SET banned = 1 WHERE id = ?').run(sb.app().id);
    expect((await sb.client('init', { ver: '1.0' })).json).toMatchObject({ success: false, message: 'This application has been banned from KeyAuth.cc for violating terms.' });
    sb.store.db.prepare('UPDATE apps SET banned = 0, name = ? WHERE id = ?').run('Renamed', sb.app().id);
    expect((await sb.client('init', { ver: '1.0' })).text).toBe('KeyAuth_Invalid');
    await sb.close();
  });
});

describe('the seller keys kept with their digests', () => {
  it('follow a key changed straight in the database: the old key is refused, the new one accepted', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallkeys'), 'No keys found');
    const newKey = 'n'.repeat(32);
    sb.store.db.prepare('UPDATE apps SET sellerKey = ? WHERE id = ?').run(newKey, sb.app().id);
    expectFail(await sb.seller('fetchallkeys'), 'No application found', 404);
    expectEmptyList(await sb.seller('fetchallkeys', { sellerkey: newKey }), 'No keys found');
    await sb.close();
  });
});

describe('the data stamp of a store file', () => {
  it('moves when another connection commits, so the app found from memory follows it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-stamp-'));
    const store = openStore(path.join(dir, 'sandbox.db'));
    try {
      const app = seedStore(store, {}, Math.floor(Date.now() / 1000));
      expect(Boolean(findAppByNameAndOwnerid(store, app.name, app.ownerid)?.banned)).toBe(false);
      const before = store.dataStamp();
      const other = retain(new Database(store.location));
      other.prepare('UPDATE apps SET banned = 1 WHERE id = ?').run(app.id);
      other.close();
      expect(store.dataStamp()).not.toBe(before);
      expect(Boolean(findAppByNameAndOwnerid(store, app.name, app.ownerid)?.banned)).toBe(true);
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the app row kept by the apps table stamp', () => {
  it('survives writes to other tables and follows updates and deletes of the app row', () => {
    const store = openStore(':memory:');
    const now = Math.floor(Date.now() / 1000);
    const app = seedStore(store, {}, now);
    const kept = findAppByNameAndOwnerid(store, app.name, app.ownerid);
    createSession(store, app, { ip: '127.0.0.1', api: '1.3' }, now);
    expect(findAppByNameAndOwnerid(store, app.name, app.ownerid)).toBe(kept);

    store.db.prepare('UPDATE apps SET enabled = 0 WHERE id = ?').run(app.id);
    expect(Boolean(findAppByNameAndOwnerid(store, app.name, app.ownerid)?.enabled)).toBe(false);
    store.db.pragma('foreign_keys = OFF');
    const row = store.db.prepare('SELECT * FROM apps WHERE id = ?').get(app.id) as Record<string, unknown>;
    store.db.prepare('DELETE FROM apps WHERE id = ?').run(app.id);
    expect(findAppByNameAndOwnerid(store, app.name, app.ownerid)).toBeUndefined();
    const names = Object.keys(row);
    store.db.prepare(`INSERT INTO apps (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run({ ...row, enabled: 1 });
    expect(Boolean(findAppByNameAndOwnerid(store, app.name, app.ownerid)?.enabled)).toBe(true);
    store.close();
  });
});
