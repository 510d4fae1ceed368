/**
 * Seller API over real HTTP: blacklists (§3.2), whitelists (§3.13), sessions (§3.8), web loader
 * buttons (§3.12) and logs (§3.7).
 */
import { describe, expect, it } from 'vitest';
import { isWhitelisted, listBlacklists } from '../../src/server/domain/blacklists.js';
import { addLog } from '../../src/server/domain/logs.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectEmptyList, expectFail, loginSession, makeUser, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

const HWID = 'HWID-0000000000000000001';

describe('blacklists', () => {
  it('black adds one entry per value; the client API refuses them; delblack lifts one', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'black', { hwid: HWID, ip: '203.0.113.7' }, 'Blacklist Addition Successful');
    expect((await sellerOk(sb, 'fetchallblacks', {}, 'Successfully retrieved blacklists'))['blacklists']).toEqual([
      { hwid: null, ip: '203.0.113.7', type: 'ip' },
      { hwid: HWID, ip: null, type: 'hwid' },
    ]);
    const sessionid = await sb.init();
    expect((await sb.client('login', { sessionid, username: 'alice', pass: 'pw', hwid: HWID })).json.message).toBe("You've been blacklisted from our application");
    await sellerOk(sb, 'delblack', { data: HWID, blacktype: 'hwid' }, 'Successfully deleted blacklist!');
    await loginSession(sb, 'alice');
  });

  it('black with neither value succeeds and adds nothing, as E', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'black', {}, 'Blacklist Addition Successful');
    expectEmptyList(await sb.seller('fetchallblacks'), 'No blacklists found');
  });

  it('a loopback IP can be blacklisted on purpose, and then refuses loopback clients', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'black', { ip: '127.0.0.1' });
    const sessionid = await sb.init();
    expect((await sb.client('login', { sessionid, username: 'alice', pass: 'pw', hwid: HWID })).json.message).toBe("You've been blacklisted from our application");
  });

  it('delblack / delblacks refusals', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('delblacks'), 'Failed to delete all blacklists!');
    expectFail(await sb.seller('delblack', { data: 'x', blacktype: 'hwid' }), 'Failed to delete blacklist!');
    expectFail(await sb.seller('delblack', { data: 'x', blacktype: 'mac' }), 'Invalid blacklist type!');
    expectFail(await sb.seller('delblack', { data: 'x' }), 'Invalid blacklist type!');
    expectFail(await sb.seller('delblack', { blacktype: 'ip' }), 'Missing parameter: data');
    await sellerOk(sb, 'black', { ip: '203.0.113.7', hwid: HWID });
    await sellerOk(sb, 'delblacks', {}, 'Successfully deleted all blacklists!');
    expect(listBlacklists(sb.store, sb.app().id)).toEqual([]);
  });
});

describe('whitelists', () => {
  it('addWhite / delWhite / delallwhites', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addWhite', { ip: '198.51.100.20' }, 'Successfully added whitelist!');
    expect(isWhitelisted(sb.store, sb.app().id, '198.51.100.20')).toBe(true);
    expectFail(await sb.seller('addWhite', { ip: '198.51.100.20' }), 'Failed to add whitelist!');
    await sellerOk(sb, 'delWhite', { ip: '198.51.100.20' }, 'Successfully deleted whitelist!');
    expectFail(await sb.seller('delWhite', { ip: '198.51.100.20' }), 'Failed to delete whitelist!');
    expectFail(await sb.seller('delallwhites'), 'Failed to delete all whitelists!');
    await sellerOk(sb, 'addWhite', { ip: '198.51.100.21' });
    await sellerOk(sb, 'delallwhites', {}, 'Successfully deleted all whitelists!');
    expect(isWhitelisted(sb.store, sb.app().id, '198.51.100.21')).toBe(false);
    expectFail(await sb.seller('addWhite'), 'Missing parameter: ip');
  });
});

describe('sessions', () => {
  it('fetchallsessions lists live sessions; kill ends one, so the client is logged out', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallsessions'), 'No sessions found');
    await makeUser(sb, 'alice');
    const open = await sb.init();
    const loggedIn = await loginSession(sb, 'alice');
    const rows = (await sellerOk(sb, 'fetchallsessions', {}, 'Successfully retrieved sessions'))['sessions'] as Record<string, unknown>[];
    // Both opened in the same second: their order is the store's, so compare them sorted.
    rows.sort((a, b) => String(a['validated']).localeCompare(String(b['validated'])));
    expect(rows).toEqual([
      { id: open, credential: null, expiry: expect.stringMatching(/^\d+$/), validated: '0', ip: '127.0.0.1' },
      { id: loggedIn, credential: 'alice', expiry: expect.stringMatching(/^\d+$/), validated: '1', ip: '127.0.0.1' },
    ]);
    await sellerOk(sb, 'kill', { sessid: loggedIn }, 'Successfully killed session!');
    expect((await sb.client('check', { sessionid: loggedIn })).json.success).toBe(false);
    expect((await sb.client('check', { sessionid: open })).json.message).toBe('Session is not validated');
    expectFail(await sb.seller('kill', { sessid: loggedIn }), 'Failed to kill session!');
  });

  it('killall ends every session; expired ones are not listed', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    expectFail(await sb.seller('killall'), 'Failed to kill all sessions!');
    const a = await sb.init();
    await sb.init();
    await sellerOk(sb, 'killall', {}, 'Successfully killed all sessions!');
    expect((await sb.client('check', { sessionid: a })).json.success).toBe(false);
    await sb.init();
    clock.advance(6 * 3600 + 1);
    expectEmptyList(await sb.seller('fetchallsessions'), 'No sessions found');
  });
});

describe('web loader buttons', () => {
  it('addbutton / fetchallbuttons / delbutton / delallbuttons', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallbuttons'), 'No buttons found');
    await sellerOk(sb, 'addbutton', { text: 'Launch game', value: 'launch' }, 'Succesfully added button!');
    expectFail(await sb.seller('addbutton', { text: 'Again', value: 'launch' }), "Failed to add button! You can't have two button with the same value.");
    expectFail(await sb.seller('addbutton', { text: 'Spaced', value: 'has space' }), 'Invalid parameter: value must not contain spaces');
    expect((await sellerOk(sb, 'fetchallbuttons', {}, 'Successfully retrieved buttons'))['buttons']).toEqual([{ text: 'Launch game', value: 'launch' }]);
    await sellerOk(sb, 'delbutton', { value: 'launch' }, 'Successfully deleted button!');
    expectFail(await sb.seller('delbutton', { value: 'launch' }), 'Failed to delete button!');
    expectFail(await sb.seller('delallbuttons'), 'Failed to delete all buttons!');
    await sellerOk(sb, 'addbutton', { text: 'A', value: 'a' });
    await sellerOk(sb, 'delallbuttons', {}, 'Successfully deleted all buttons!');
    expectEmptyList(await sb.seller('fetchallbuttons'), 'No buttons found');
  });
});

describe('logs', () => {
  it('fetchalllogs lists client logs with the app name in logapp; dellogs deletes them', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    expectEmptyList(await sb.seller('fetchalllogs'), 'No logs found');
    expectFail(await sb.seller('dellogs'), 'Failed to delete all logs!');
    addLog(sb.store, sb.app().id, { logdata: 'started', credential: 'alice', pcuser: 'DESKTOP\\alice' }, clock.seconds());
    const body = await sellerOk(sb, 'fetchalllogs', {}, 'Successfully retrieved logs');
    expect(body['logs']).toEqual([
      { id: expect.stringMatching(/^\d+$/), logdate: String(clock.seconds()), logdata: 'started', credential: 'alice', pcuser: 'DESKTOP\\alice', logapp: sb.info.app.name },
    ]);
    await sellerOk(sb, 'dellogs', {}, 'Successfully deleted all logs!');
    expectEmptyList(await sb.seller('fetchalllogs'), 'No logs found');
  });
});
