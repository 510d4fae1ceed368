/**
 * The seller API as lenient as the hosted one where real clients rely on it (docs/protocol/seller-api.md
 * §1.6): booleans spelt 1/0, true/false, yes/no or on/off in any case (the official Telegram bot
 * sends `userToo=true`, `activeOnly=false`), anything else refused clearly instead of read as true;
 * and `getsettings` also grouped as the `functions` / `messages` objects that bot reads.
 * (`editfile` without `authed` is in seller-files-webhooks.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { findLicense } from '../../src/server/domain/licenses.js';
import { getApp } from '../../src/server/domain/apps.js';
import { getUserVar } from '../../src/server/domain/user-vars.js';
import { findUser } from '../../src/server/domain/users.js';
import { listUserSubs } from '../../src/server/domain/user-subs.js';
import { expectFail, makeKey, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const BOOLEAN_REFUSAL = (wire: string) => `Invalid parameter: ${wire} must be 1/0, true/false, yes/no or on/off`;

async function redeemedKey(sb: TestSandbox, username: string): Promise<string> {
  const key = await makeKey(sb);
  await sellerOk(sb, 'activate', { key, user: username, pass: 'pw' });
  return key;
}

describe('boolean parameters', () => {
  it.each(['1', 'true', 'TRUE', 'True', 'yes', 'YES', 'on', 'On'])('del userToo=%s deletes the key and its user', async (value) => {
    const sb = await startSellerSandbox();
    const key = await redeemedKey(sb, 'alice');
    await sellerOk(sb, 'del', { key, userToo: value }, 'Successfully deleted license!');
    expect(findUser(sb.store, sb.app().id, 'alice')).toBeUndefined();
  });

  it.each(['0', 'false', 'FALSE', 'no', 'No', 'off', 'OFF'])('del userToo=%s deletes the key and keeps its user', async (value) => {
    const sb = await startSellerSandbox();
    const key = await redeemedKey(sb, 'alice');
    await sellerOk(sb, 'del', { key, userToo: value }, 'Successfully deleted license!');
    expect(findUser(sb.store, sb.app().id, 'alice')).toBeDefined();
  });

  it.each(['maybe', '2', 'y', 'enabled', 'truee'])('del userToo=%s is refused and nothing is deleted', async (value) => {
    const sb = await startSellerSandbox();
    const key = await redeemedKey(sb, 'alice');
    expectFail(await sb.seller('del', { key, userToo: value }), BOOLEAN_REFUSAL('userToo'));
    expect(findLicense(sb.store, sb.app().id, key)).toBeDefined();
    expect(findUser(sb.store, sb.app().id, 'alice')).toBeDefined();
  });

  it('ban userToo=true bans the user too; false leaves the user alone', async () => {
    const sb = await startSellerSandbox();
    const first = await redeemedKey(sb, 'alice');
    await sellerOk(sb, 'ban', { key: first, reason: 'refund', userToo: 'false' }, 'Successfully banned license!');
    expect(findUser(sb.store, sb.app().id, 'alice')?.banned).toBeNull();
    const second = await redeemedKey(sb, 'bob');
    await sellerOk(sb, 'ban', { key: second, reason: 'refund', userToo: 'true' }, 'Successfully banned license!');
    expect(findUser(sb.store, sb.app().id, 'bob')?.banned).not.toBeNull();
  });

  it('extend user=all activeOnly=true extends only holders; activeOnly=false gives it to everyone', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addsub', { name: 'gold', level: '2' });
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob', { sub: 'gold' });
    const goldOf = (username: string) => listUserSubs(sb.store, findUser(sb.store, sb.app().id, username)!.id).filter((s) => s.subscription === 'gold');
    await sellerOk(sb, 'extend', { user: 'all', sub: 'gold', expiry: '1', activeOnly: 'true' });
    expect(goldOf('alice')).toHaveLength(0);
    expect(goldOf('bob')).toHaveLength(1);
    await sellerOk(sb, 'extend', { user: 'all', sub: 'gold', expiry: '1', activeOnly: 'false' });
    expect(goldOf('alice')).toHaveLength(1);
    expectFail(await sb.seller('extend', { user: 'all', sub: 'gold', expiry: '1', activeOnly: 'sometimes' }), BOOLEAN_REFUSAL('activeOnly'));
  });

  it('addvar authed=yes, setvar readOnly=on, updatesettings hwidcheck=0 and enabled=OFF', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'hi', authed: 'yes' });
    expect((await sellerOk(sb, 'retrvvar', { name: 'motd' }))['authed']).toBe('true');
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'tier', data: 'gold', readOnly: 'on' });
    expect(getUserVar(sb.store, findUser(sb.store, sb.app().id, 'alice')!.id, 'tier')?.readOnly).toBe(1);
    await sellerOk(sb, 'updatesettings', { hwidcheck: '0', enabled: 'OFF' }, 'Settings Update Successful');
    expect(getApp(sb.store, sb.app().id)).toMatchObject({ hwidcheck: 0, enabled: 0 });
    await sellerOk(sb, 'updatesettings', { hwidcheck: 'Yes', enabled: '1' });
    expect(getApp(sb.store, sb.app().id)).toMatchObject({ hwidcheck: 1, enabled: 1 });
    // E's own wording stays where the page records one.
    expectFail(await sb.seller('updatesettings', { hwidcheck: 'maybe' }), 'The hwidcheck value must be "true" or "false"');
    expectFail(await sb.seller('updatesettings', { enabled: 'maybe' }), BOOLEAN_REFUSAL('enabled'));
    expect(getApp(sb.store, sb.app().id)).toMatchObject({ hwidcheck: 1, enabled: 1 });
  });
});

describe('getsettings', () => {
  it('carries functions and messages objects beside the flat fields, with the same values', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'updatesettings', { ver: '2.5', cooldown: '86400', hwidcheck: 'false', vpnblock: 'true', passmismatch: 'Wrong password', keybanned: 'Key banned' });
    await sellerOk(sb, 'addhash', { hash: 'a'.repeat(32) });
    const body = await sellerOk(sb, 'getsettings', {}, 'Retrieved Settings Successfully');
    expect(body).toMatchObject({ enabled: true, 'hwid-lock': false, version: '2.5', cooldown: '86400', passinvalidmsg: 'Wrong password' });
    expect(body['functions']).toEqual({
      enabled: true,
      paused: false,
      'hwid-lock': false,
      vpnblock: true,
      ipLogging: true,
      version: '2.5',
      download: body['download'],
      webdownload: body['webdownload'],
      webhook: body['webhook'],
      resellerstore: body['resellerstore'],
      sellixsecret: body['sellixsecret'],
      cooldown: '86400',
      hash: 'a'.repeat(32),
    });
    const messages = body['messages'] as Record<string, unknown>;
    for (const name of ['disabledmsg', 'usernametakenmsg', 'licenseinvalidmsg', 'keytakenmsg', 'nosubmsg', 'userinvalidmsg', 'passinvalidmsg', 'hwidmismatchmsg', 'noactivesubmsg', 'blackedmsg']) {
      expect(messages[name], name).toBe(body[name]);
    }
    expect(messages).toMatchObject({ passinvalidmsg: 'Wrong password', keybanned: 'Key banned' });
    for (const name of ['userbanned', 'sessionunauthed', 'hashcheckfail', 'loggedInMsg', 'pausedApp', 'unTooShort', 'pwLeaked', 'pausedsub', 'chatHitDelay']) {
      expect(typeof messages[name], name).toBe('string');
    }
  });

  it('keeps the format=text lines as they were (no objects in them)', async () => {
    const sb = await startSellerSandbox();
    const text = (await sb.seller('getsettings', { format: 'text' })).text;
    expect(text).not.toContain('[object Object]');
    expect(text.split('\n')[2]).toBe('1.0');
  });
});
