/**
 * The security settings a protected program meets, switched on through the seller API
 * (`updatesettings`, whose sandbox-only parameters the real service sets on its dashboard) and
 * checked over real HTTP: VPN ranges and the whitelist, minimum HWID and username lengths,
 * forced HWID, leaked passwords, forced encryption (1.2), the paused app, and the messages.
 * On the old code these parameters were ignored, so every refusal below was a success.
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

async function set(sb: TestSandbox, params: Record<string, string>): Promise<void> {
  const res = await sb.seller('updatesettings', params);
  expect(res.json, res.text).toMatchObject({ success: true, message: 'Settings Update Successful' });
}

async function newKey(sb: TestSandbox): Promise<string> {
  const res = await sb.seller('add', { expiry: '30', amount: '1', level: '1', mask: '******-******' });
  return res.json.key as string;
}

describe('security settings (sandbox, over HTTP)', () => {
  it('VPN block: init from an address in the ranges is refused unless whitelisted', async () => {
    const sb = await startTestSandbox();
    await set(sb, { vpnblock: 'true', vpnranges: '10.0.0.0/8, 127.0.0.0/8' });
    const blocked = await sb.client('init');
    expect(blocked.json).toMatchObject({ success: false, message: 'VPNs are blocked on this application' });
    expect(sb.verify13(blocked)).toBe(true);
    await set(sb, { vpnblocked: 'No VPNs here' });
    expect((await sb.client('init')).json.message).toBe('No VPNs here');
    expect((await sb.seller('addWhite', { ip: '127.0.0.1' })).json.success).toBe(true);
    expect((await sb.client('init')).json.success).toBe(true);
    await set(sb, { vpnranges: '10.0.0.0/8' });
    expect((await sb.seller('delWhite', { ip: '127.0.0.1' })).json.success).toBe(true);
    expect((await sb.client('init')).json.success).toBe(true);
    const settings = await sb.seller('getsettings');
    expect(settings.json.sandbox).toMatchObject({ vpnblock: true, vpnranges: '10.0.0.0/8' });
  });

  it('minimum HWID length and forced HWID at login and license', async () => {
    const sb = await startTestSandbox();
    const key = await newKey(sb);
    await set(sb, { minhwid: '30' });
    let sessionid = await sb.init();
    const short = await sb.client('license', { sessionid, key, hwid: 'H'.repeat(29) });
    expect(short.json.message).toBe('HWID must be 30 or more characters, change this in app settings.');
    await set(sb, { minhwid: '5', forcehwid: 'true' });
    sessionid = await sb.init();
    expect((await sb.client('license', { sessionid, key })).json.success).toBe(false);
    await set(sb, { forcehwid: 'false' });
    sessionid = await sb.init();
    expect((await sb.client('license', { sessionid, key })).json.success).toBe(true);
  });

  it('minimum username length and leaked passwords at register', async () => {
    const sb = await startTestSandbox();
    await set(sb, { minusernamelength: '6', blockleakedpasswords: 'true', unTooShort: 'Pick a longer name', pwLeaked: 'That one is leaked' });
    let sessionid = await sb.init();
    const key = await newKey(sb);
    const hwid = 'HWID-0000000000000000000001';
    expect((await sb.client('register', { sessionid, username: 'bob', pass: 'long-unique-pw-1', key, hwid })).json.message).toBe('Pick a longer name');
    expect((await sb.client('register', { sessionid, username: 'bobbyb', pass: 'password123', key, hwid })).json.message).toBe('That one is leaked');
    sessionid = await sb.init();
    expect((await sb.client('register', { sessionid, username: 'bobbyb', pass: 'long-unique-pw-1', key, hwid })).json.success).toBe(true);
    await set(sb, { blockleakedpasswords: 'false' });
    sessionid = await sb.init();
    const key2 = await newKey(sb);
    expect((await sb.client('register', { sessionid, username: 'carolc', pass: 'password123', key: key2, hwid })).json.success).toBe(true);
  });

  it('forced encryption refuses a 1.2 init without enckey; a paused app refuses init', async () => {
    const sb = await startTestSandbox();
    await set(sb, { forceencryption: 'true' });
    expect((await sb.client('init', {}, { api: '1.2' })).json.message).toBe('No encryption key supplied, encryption is forced.');
    expect((await sb.client('init', { enckey: '0123456789abcdef' }, { api: '1.2' })).json.success).toBe(true);
    await set(sb, { forceencryption: 'false' });
    expect((await sb.seller('pauseapp')).json.success).toBe(true);
    await set(sb, { pausedApp: 'Back soon' });
    expect((await sb.client('init')).json.message).toBe('Back soon');
    expect((await sb.seller('getsettings')).json.sandbox.paused).toBe(true);
  });

  it('refuses bad values and changes nothing', async () => {
    const sb = await startTestSandbox();
    for (const [params, message] of [
      [{ minhwid: '-1' }, 'Invalid parameter: minhwid must not be negative'],
      [{ minhwid: 'ten' }, 'Invalid parameter: minhwid must be a whole number'],
      [{ hashcheck: 'maybe' }, 'Invalid parameter: hashcheck must be 1/0, true/false, yes/no or on/off'],
      [{ vpnranges: 'example.com/8' }, 'Invalid parameter: vpnranges must be comma-separated CIDRs such as 10.8.0.0/16'],
    ] as const) {
      const res = await sb.seller('updatesettings', { ...params, ver: '9.9' });
      expect(res.json.success, JSON.stringify(params)).toBe(false);
      expect(res.json.message).toBe(message);
    }
    expect(sb.app().ver).toBe('1.0');
    expect(sb.app().minHwid).toBe(20);
  });
});
