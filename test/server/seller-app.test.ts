/** Seller API, application settings (docs/protocol/seller-api.md §3.1), over real HTTP. */
import { describe, expect, it } from 'vitest';
import { getApp } from '../../src/server/domain/apps.js';
import { expectFail, expectOk, loginSession, makeUser, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

describe('appdetails', () => {
  it('returns name, ownerid, secret and version', async () => {
    const sb = await startSellerSandbox();
    const body = await sellerOk(sb, 'appdetails', {}, 'Fetched Application Details Successfully');
    expect(body['appdetails']).toEqual({ name: sb.info.app.name, ownerid: sb.info.app.ownerid, secret: sb.info.app.secret, version: '1.0' });
  });
});

describe('getsettings', () => {
  it('returns the settings and messages with booleans for the two flags', async () => {
    const sb = await startSellerSandbox();
    const body = await sellerOk(sb, 'getsettings', {}, 'Retrieved Settings Successfully');
    expect(body).toMatchObject({
      enabled: true,
      'hwid-lock': true,
      version: '1.0',
      download: null,
      disabledmsg: 'This application is disabled',
      licenseinvalidmsg: 'Invalid license key',
      blackedmsg: "You've been blacklisted from our application",
      cooldown: '604800',
    });
    expect(Object.keys(body)).toEqual([
      'success', 'message', 'enabled', 'hwid-lock', 'version', 'download', 'webdownload', 'webhook', 'resellerstore',
      'disabledmsg', 'usernametakenmsg', 'licenseinvalidmsg', 'keytakenmsg', 'nosubmsg', 'userinvalidmsg', 'passinvalidmsg',
      'hwidmismatchmsg', 'noactivesubmsg', 'blackedmsg', 'sellixsecret', 'cooldown', 'functions', 'messages', 'sandbox',
    ]);
  });

  it('answers format=text with one value a line, never two glued on one (E glues two)', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'updatesettings', { download: 'https://example.com/app.zip', sellixsecret: 'shh' });
    const res = await sb.seller('getsettings', { format: 'text' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = res.text.split('\n');
    expect(lines).toHaveLength(19);
    expect(lines.slice(0, 7)).toEqual(['true', 'true', '1.0', 'https://example.com/app.zip', '', '', '']);
    expect(lines[7]).toBe('This application is disabled');
    expect(lines.slice(-2)).toEqual(['shh', '604800']);
  });
});

describe('updatesettings', () => {
  it('writes only the settings given, messages included', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'updatesettings', { ver: '2.0', hwidcheck: 'false', keynotfound: 'No such key', resellerstore: 'https://shop.example' }, 'Settings Update Successful');
    const body = await sellerOk(sb, 'getsettings');
    expect(body).toMatchObject({ enabled: true, 'hwid-lock': false, version: '2.0', licenseinvalidmsg: 'No such key', resellerstore: 'https://shop.example' });
    // The client API sees the change: the old version is refused, the new message is used.
    expect((await sb.client('init', { ver: '1.0' })).json.message).toBe('invalidver');
    const sessionid = await sb.init({ ver: '2.0' });
    expect((await sb.client('license', { sessionid, key: 'NOPE', hwid: 'HWID-0000000000000000001' })).json.message).toBe('No such key');
  });

  it('accepts a call with nothing to change', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'updatesettings', {}, 'Settings Update Successful');
  });

  it('refuses a hwidcheck that is not a boolean word, in E\'s words', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('updatesettings', { hwidcheck: '2' }), 'The hwidcheck value must be "true" or "false"');
  });

  it('disables the app for clients with enabled=false', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'updatesettings', { enabled: 'false' });
    expect((await sb.client('init', { ver: '1.0' })).json.message).toBe('This application is disabled');
  });
});

describe('stats', () => {
  it('counts keys by status, webhooks, files, vars and accounts, as strings without a message', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'add', { expiry: '1', amount: '3' });
    const banned = (await sellerOk(sb, 'add', { expiry: '1' }))['key'] as string;
    await sellerOk(sb, 'ban', { key: banned, reason: 'x' });
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'hi', authed: '0' });
    await sellerOk(sb, 'addwebhook', { baseurl: 'http://127.0.0.1:9/hook', authed: '1' });
    await sellerOk(sb, 'addAccount', { role: 'Reseller', user: 'shop1', pass: 'p', email: 'shop1@example.com' });
    await sellerOk(sb, 'addAccount', { role: 'Manager', user: 'mgr1', pass: 'p', email: 'mgr1@example.com' });
    const res = await sb.seller('stats');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true, unused: '3', used: '0', paused: '0', banned: '1', totalkeys: '4',
      webhooks: '1', files: '0', vars: '1', resellers: '1', managers: '1', totalaccs: '2',
    });
  });
});

describe('pauseapp / unpauseapp', () => {
  it('freezes active subscriptions and the app, then restarts them', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'pauseapp', {}, 'Successfully paused application');
    expect(getApp(sb.store, sb.app().id).paused).toBe(1);
    expect((await sb.client('init', { ver: '1.0' })).json.message).toBe('Application is currently paused, please wait for the developer to say otherwise.');
    expectFail(await sb.seller('pauseapp'), 'Failed to pause application');
    await sellerOk(sb, 'unpauseapp', {}, 'Successfully unpaused application');
    expectFail(await sb.seller('unpauseapp'), 'Failed to unpause application');
    await loginSession(sb, 'alice');
  });
});

describe('addhash / resethash', () => {
  it('appends hashes without a separator and clears them', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addhash', { hash: 'aaa' }, 'Successfully added hash!');
    await sellerOk(sb, 'addhash', { hash: 'bbb' }, 'Successfully added hash!');
    expect(getApp(sb.store, sb.app().id).hash).toBe('aaabbb');
    await sellerOk(sb, 'resethash', {}, 'Successfully reset hash!');
    expect(getApp(sb.store, sb.app().id).hash).toBeNull();
    expectFail(await sb.seller('addhash'), 'Missing parameter: hash');
  });
});

describe('setseller', () => {
  it('confirms the key and honours format=text', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'setseller', {}, 'Seller Key Successfully Found');
    const text = await sb.seller('setseller', { format: 'text' });
    expect(text.status).toBe(200);
    expect(text.text).toBe('Seller Key Successfully Found');
  });
});

it('keeps the store untouched by a refused call (failure answered 200, as the hosted seller API)', async () => {
  const sb = await startSellerSandbox();
  const res = await sb.seller('updatesettings', { ver: '3.0', hwidcheck: 'maybe' });
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ success: false, message: 'The hwidcheck value must be "true" or "false"' });
  expect(getApp(sb.store, sb.app().id).ver).toBe('1.0');
  expectOk(await sb.seller('appdetails'));
});
