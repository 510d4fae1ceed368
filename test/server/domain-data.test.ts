/** Store, seeding, licenses, chat and variables at the domain level. */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { retain } from '../../src/server/store/native-handles.js';
import path from 'node:path';
import { openTestStore, type TestStore } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { openStore } from '../../src/server/store/store.js';
import { SCHEMA_VERSION, StoreVersionError } from '../../src/server/store/migrations.js';
import { DEFAULT_APP_MESSAGES, appMessages, appMessage, setAppMessage } from '../../src/server/domain/messages.js';
import { listSubscriptions } from '../../src/server/domain/subscriptions.js';
import {
  addTimeToUnusedLicenses,
  banLicense,
  deleteLicense,
  findLicense,
  generateLicenses,
  licenseCounts,
  unbanLicense,
} from '../../src/server/domain/licenses.js';
import { keyFromMask } from '../../src/server/domain/license-keys.js';
import { registerWithKey } from '../../src/server/domain/register.js';
import { findUser } from '../../src/server/domain/users.js';
import { createChannel, getChatMessages, muteUser, sendChatMessage, formatMuteDate, CHAT_HISTORY } from '../../src/server/domain/chat.js';
import { getUserVar, setUserVar } from '../../src/server/domain/user-vars.js';
import { createGlobalVar, findGlobalVar } from '../../src/server/domain/global-vars.js';
import { createUser } from '../../src/server/domain/users.js';
import { isBlacklisted } from '../../src/server/domain/blacklists.js';
import { appCounts } from '../../src/server/domain/apps.js';

const NOW = 1_800_000_000;
let t: TestStore;

afterEach(() => t?.store.close());

describe('store', () => {
  it('creates every table at the current schema version with the durable pragmas', () => {
    const data = path.join(tempDir(), 'store.db');
    const store = openStore(data);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      const tables = store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").map((r) => r.name);
      expect(tables).toEqual([
        'accounts', 'app_messages', 'apps', 'blacklists', 'chat_channels', 'chat_messages', 'chat_mutes', 'email_codes', 'files', 'licenses',
        'loader_buttons', 'logs', 'magic_links', 'meta', 'outbox', 'password_resets', 'pending_2fa', 'request_log', 'sessions', 'shop_sales', 'subscriptions', 'tokens',
        'user_subs', 'user_vars', 'users', 'vars', 'webhooks', 'whitelists',
      ]);
    } finally {
      store.close();
    }
    // Reopening runs no migration twice.
    const again = openStore(data);
    expect(again.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('refuses a store written by a newer schema', () => {
    const data = path.join(tempDir(), 'future.db');
    const raw = retain(new Database(data));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStore(data)).toThrow(StoreVersionError);
  });

  it('rolls a transaction back when it throws', () => {
    t = openTestStore(NOW);
    expect(() =>
      t.store.tx(() => {
        createUser(t.store, t.app.id, { username: 'ghost', passwordHash: null }, NOW);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(findUser(t.store, t.app.id, 'ghost')).toBeUndefined();
  });
});

describe('seeding', () => {
  it('creates the app with the real service’s defaults', () => {
    t = openTestStore(NOW);
    expect(t.app).toMatchObject({ name: 'sandbox-app', ver: '1.0', owner: 'sandbox-owner', hwidcheck: 1, forceHwid: 1, minHwid: 20, sessionLength: 21600, enabled: 1, paused: 0 });
    expect(t.app.ownerid).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(t.app.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(t.app.sellerKey).toMatch(/^[0-9a-f]{32}$/);
    expect(listSubscriptions(t.store, t.app.id).map((s) => [s.name, s.level])).toEqual([['default', '1']]);
    expect(appMessages(t.store, t.app.id)).toEqual(DEFAULT_APP_MESSAGES);
  });

  it('fills {reason} into ban messages and falls back to defaults', () => {
    t = openTestStore(NOW);
    setAppMessage(t.store, t.app.id, 'keybanned', 'Key banned ({reason})');
    expect(appMessage(t.store, t.app.id, 'keybanned', 'fraud')).toBe('Key banned (fraud)');
    t.store.run("DELETE FROM app_messages WHERE key = 'loggedInMsg'");
    expect(appMessage(t.store, t.app.id, 'loggedInMsg')).toBe('Logged in!');
  });
});

describe('licenses', () => {
  it('generates unique keys from the mask in the chosen character set', () => {
    t = openTestStore(NOW);
    const made = generateLicenses(t.store, t.app.id, { amount: 100, expires: 86_400, level: '3', note: 'batch', genby: 'reseller1' }, NOW);
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(new Set(made.value).size).toBe(100);
    for (const k of made.value) expect(k).toMatch(/^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}$/);
    expect(findLicense(t.store, t.app.id, made.value[0]!)).toMatchObject({ status: 'Not Used', level: '3', note: 'batch', genby: 'reseller1', gendate: NOW, expires: 86_400 });
    expect(keyFromMask('KEY-****-****', 2)).toMatch(/^KEY-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(keyFromMask('****', 3)).toMatch(/^[a-z0-9]{4}$/);
    expect(generateLicenses(t.store, t.app.id, { mask: 'XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX', expires: 1 }, NOW)).toMatchObject({ ok: true });
  });

  it('refuses a taken fixed key and a mask too small for the amount, keeping nothing', () => {
    t = openTestStore(NOW);
    expect(generateLicenses(t.store, t.app.id, { mask: 'MY-KEY', expires: 1 }, NOW)).toMatchObject({ ok: true, value: ['MY-KEY'] });
    expect(generateLicenses(t.store, t.app.id, { mask: 'MY-KEY', expires: 1 }, NOW)).toMatchObject({ ok: false, code: 'exists' });
    expect(generateLicenses(t.store, t.app.id, { mask: '*', character: 3, amount: 37, expires: 1 }, NOW)).toMatchObject({ ok: false, code: 'exhausted' });
    // 30 of the 36 one-character keys, then 10 more: only 6 are left, so the batch fails whole.
    expect(generateLicenses(t.store, t.app.id, { mask: '*', character: 3, amount: 30, expires: 1 }, NOW)).toMatchObject({ ok: true });
    expect(generateLicenses(t.store, t.app.id, { mask: '*', character: 3, amount: 10, expires: 1 }, NOW)).toMatchObject({ ok: false, code: 'exhausted' });
    expect(licenseCounts(t.store, t.app.id)['Not Used']).toBe(31);
  });

  it('deletes a key with the subscriptions it created (and its user with userToo)', async () => {
    t = openTestStore(NOW);
    const made = generateLicenses(t.store, t.app.id, { amount: 2, expires: 60 }, NOW);
    const [k1, k2] = made.ok ? made.value : [];
    for (const [name, k] of [['u1', k1], ['u2', k2]] as const) {
      const r = await registerWithKey(t.store, t.app, t.session(NOW), { username: name, pass: 'pw', key: k, ip: '203.0.113.1' }, NOW);
      expect(r.ok).toBe(true);
    }
    expect(deleteLicense(t.store, t.app.id, k1!)).toBe(true);
    expect(t.store.all('SELECT * FROM user_subs WHERE key = ?', k1!)).toEqual([]);
    expect(findUser(t.store, t.app.id, 'u1')).toBeDefined();
    expect(deleteLicense(t.store, t.app.id, k2!, { userToo: true })).toBe(true);
    expect(findUser(t.store, t.app.id, 'u2')).toBeUndefined();
    expect(deleteLicense(t.store, t.app.id, 'nope')).toBe(false);
  });

  it('bans and unbans, with the user when asked; adds time to unused keys only', async () => {
    t = openTestStore(NOW);
    const made = generateLicenses(t.store, t.app.id, { amount: 2, expires: 60 }, NOW);
    const [used, unused] = made.ok ? made.value : [];
    await registerWithKey(t.store, t.app, t.session(NOW), { username: 'u1', pass: 'pw', key: used, ip: '203.0.113.1', hwid: 'H'.repeat(24) }, NOW);
    expect(banLicense(t.store, t.app.id, used!, 'refund', { userToo: true })).toBe(true);
    expect(findLicense(t.store, t.app.id, used!)).toMatchObject({ status: 'Banned', banned: 'refund' });
    expect(findUser(t.store, t.app.id, 'u1')!.banned).toBe('refund');
    expect(isBlacklisted(t.store, t.app.id, { hwid: 'H'.repeat(24) })).toBe(true);
    expect(isBlacklisted(t.store, t.app.id, { ip: '203.0.113.1' })).toBe(true);
    expect(unbanLicense(t.store, t.app.id, used!)).toBe(true);
    expect(findLicense(t.store, t.app.id, used!)).toMatchObject({ status: 'Used', banned: null });
    expect(findUser(t.store, t.app.id, 'u1')!.banned).toBeNull();
    expect(addTimeToUnusedLicenses(t.store, t.app.id, 40)).toBe(1);
    expect(findLicense(t.store, t.app.id, unused!)!.expires).toBe(100);
    expect(findLicense(t.store, t.app.id, used!)!.expires).toBe(60);
    // The ban ended u1's session (issue 9 item 5), so nobody is online.
    expect(appCounts(t.store, t.app.id, NOW)).toEqual({ numUsers: 1, numOnlineUsers: 0, numKeys: 2 });
  });
});

describe('chat', () => {
  it('checks channel, delay, mute (which expires), blank and length, and keeps the last 50', () => {
    t = openTestStore(NOW);
    createChannel(t.store, t.app.id, 'general', 5);
    const send = (message: string | undefined, at: number, channel = 'general', author = 'amy') => {
      const r = sendChatMessage(t.store, t.app, { channel, author, message }, at);
      return r.ok ? 'ok' : r.message;
    };
    expect(send('hi', NOW, 'nochan')).toBe('Chat channel not found');
    expect(send('hi', NOW)).toBe('ok');
    expect(send('again', NOW + 4)).toBe("Chat slower, you've hit the delay limit");
    expect(send('other user', NOW + 4, 'general', 'ben')).toBe('ok');
    muteUser(t.store, t.app.id, 'amy', NOW + 100);
    expect(send('muted', NOW + 50)).toBe(`You're muted from chat until ${formatMuteDate(NOW + 100)}`);
    expect(send(undefined, NOW + 100)).toBe("Message can't be blank");
    expect(send('x'.repeat(2001), NOW + 100)).toBe('Message too long!');
    expect(formatMuteDate(1_700_000_000)).toBe('November 14, 2023, 10:13 pm');
    createChannel(t.store, t.app.id, 'fast', 0);
    for (let i = 0; i < 60; i++) expect(send(`m${i}`, NOW + 100 + i, 'fast')).toBe('ok');
    const messages = getChatMessages(t.store, t.app.id, 'fast');
    expect(messages).toHaveLength(CHAT_HISTORY);
    expect(messages[0]).toEqual({ author: 'amy', message: 'm10', timestamp: NOW + 110 });
    expect(messages.at(-1)!.message).toBe('m59');
    expect(getChatMessages(t.store, t.app.id, 'unknown')).toEqual([]);
  });
});

describe('variables', () => {
  it('user variables upsert; read-only ones refuse the client but not the seller', () => {
    t = openTestStore(NOW);
    const user = createUser(t.store, t.app.id, { username: 'amy', passwordHash: null }, NOW);
    expect(setUserVar(t.store, t.app.id, user.id, 'color', 'red', { respectReadOnly: true })).toBe('set');
    expect(setUserVar(t.store, t.app.id, user.id, 'color', 'blue', { respectReadOnly: true })).toBe('set');
    expect(getUserVar(t.store, user.id, 'color')).toMatchObject({ data: 'blue', readOnly: 0 });
    expect(setUserVar(t.store, t.app.id, user.id, 'plan', 'gold', { readOnly: true })).toBe('set');
    expect(setUserVar(t.store, t.app.id, user.id, 'plan', 'free', { respectReadOnly: true })).toBe('readonly');
    expect(setUserVar(t.store, t.app.id, user.id, 'plan', 'platinum')).toBe('set');
    expect(getUserVar(t.store, user.id, 'plan')).toMatchObject({ data: 'platinum', readOnly: 1 });
  });

  it('global variables are unique per app', () => {
    t = openTestStore(NOW);
    expect(createGlobalVar(t.store, t.app.id, 'motd', 'hello', false)).toBe(true);
    expect(createGlobalVar(t.store, t.app.id, 'motd', 'again', true)).toBe(false);
    expect(findGlobalVar(t.store, t.app.id, 'motd')).toMatchObject({ msg: 'hello', authed: 0 });
  });
});
