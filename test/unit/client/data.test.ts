import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../src/server/dispatch/reply.js';
import { withSession } from '../../../src/server/dispatch/session-guard.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { clientRig, registered } from './rig.js';

describe('user variables and chat', () => {
  it('go to 1.2 as a POST form by default, as the spec describes them', async () => {
    const rig = await clientRig();
    await registered(rig);
    await rig.sb.seller('addchannel', { name: 'general', delay: '0' });
    expect((await rig.run(['client', 'var', 'set', 'theme', 'dark'])).code).toBe(0);
    const got = await rig.run(['client', 'var', 'get', 'theme']);
    expect(got.stdout).toBe('dark\n');
    expect((await rig.run(['client', 'chat', 'send', 'general', 'hi there'])).code).toBe(0);
    const read = await rig.run(['client', 'chat', 'read', 'general', '--json']);
    expect(JSON.parse(read.stdout)).toEqual([expect.objectContaining({ author: 'alice', message: 'hi there', timestamp: expect.any(Number) })]);
    for (const type of ['setvar', 'getvar', 'chatsend', 'chatget']) {
      expect(rig.callsOf(type).map((c) => `${c.api} ${c.method}`), type).toEqual(['1.2 POST']);
    }
  });

  it("go to 1.3 when the profile's api is 1.3", async () => {
    const rig = await clientRig({ profile: { api: '1.3' } });
    await registered(rig);
    await rig.run(['client', 'var', 'set', 'theme', 'dark']);
    await rig.run(['client', 'var', 'get', 'theme']);
    expect(rig.calls.filter((c) => c.type.endsWith('var')).map((c) => c.api)).toEqual(['1.3', '1.3']);
  });

  it("treats setvar's success:true refusals as failures (exit 1)", async () => {
    // withSession: 1.2 answers are HMAC-signed with the session's key, which the guard selects.
    const rig = await clientRig({ handlers: { setvar: withSession(() => ok('No variable data provided')) } });
    await registered(rig);
    const result = await rig.run(['client', 'var', 'set', 'theme', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No variable data provided');
  });

  it('prints a global variable from the answer\'s message', async () => {
    const rig = await clientRig();
    await registered(rig);
    await rig.sb.seller('addvar', { name: 'motd', data: 'Hello, world', authed: '0' });
    const result = await rig.run(['client', 'global-var', 'get', 'motd']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Hello, world\n');
  });
});

describe('blacklist check', () => {
  it('reads the inverted answer: exit 0 and "not blacklisted" when success is false', async () => {
    const rig = await clientRig();
    await rig.run(['client', 'init']);
    const clean = await rig.run(['client', 'blacklist', 'check']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe('not blacklisted\n');
  });

  it('exit 1 and "blacklisted" when success is true; --json is the server\'s answer', async () => {
    const rig = await clientRig({ handlers: { checkblacklist: () => ok('Client is blacklisted') } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'blacklist', 'check']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('blacklisted\n');
    const json = await rig.run(['client', 'blacklist', 'check', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, message: 'Client is blacklisted' });
  });
});

describe('file download', () => {
  const bytes = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x0a]);
  const fileAnswer = () => ok('File download successful', { contents: bytes.toString('hex') });

  it('writes the bytes to stdout when piped, and to --out PATH, never over a file without --force', async () => {
    const rig = await clientRig({ handlers: { file: fileAnswer } });
    await rig.run(['client', 'init']);
    const piped = await rig.run(['client', 'file', 'download', '123456']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(rig.callsOf('file')[0]!.params.fileid).toBe('123456');
    const target = path.join(tempDir(), 'out.bin');
    expect((await rig.run(['client', 'file', 'download', '123456', '--out', target])).code).toBe(0);
    expect(fs.readFileSync(target)).toEqual(bytes);
    const again = await rig.run(['client', 'file', 'download', '123456', '--out', target]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    expect((await rig.run(['client', 'file', 'download', '123456', '--out', target, '--force'])).code).toBe(0);
  });

  it('refuses to print binary bytes to a terminal', async () => {
    const rig = await clientRig({ handlers: { file: fileAnswer } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'file', 'download', '123456'], { stdoutTTY: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--out PATH');
    expect(result.stdout).toBe('');
  });

  it('-o is the output format here too: `-o json` prints the answer and writes no file named json', async () => {
    const rig = await clientRig({ handlers: { file: fileAnswer } });
    await rig.run(['client', 'init']);
    const cwd = process.cwd();
    const dir = tempDir();
    process.chdir(dir);
    try {
      const result = await rig.run(['client', 'file', 'download', '123456', '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ success: true, contents: bytes.toString('hex') });
      expect(fs.existsSync(path.join(dir, 'json'))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('online, webhook, ban, change-username', () => {
  it('online: "No online users found!" is an empty list, not an error', async () => {
    const rig = await clientRig({ handlers: { fetchOnline: () => fail('No online users found!') } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'online', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('webhook: passes webid, params, body and content type, prints the remote answer', async () => {
    const rig = await clientRig({ handlers: { webhook: () => ok('Webhook request successful', { response: '{"granted":true}' }) } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'webhook', 'grant', '--params', '&user=alice', '--body', '{"a":1}', '--content-type', 'application/json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('{"granted":true}\n');
    expect(rig.callsOf('webhook')[0]!.params).toMatchObject({ webid: 'grant', params: '&user=alice', body: '{"a":1}', conttype: 'application/json' });
  });

  it('ban asks first: without a terminal it needs --yes, and then bans', async () => {
    const rig = await clientRig();
    await registered(rig);
    const refused = await rig.run(['client', 'ban', '--reason', 'test']);
    expect(refused.code).toBe(2);
    expect(rig.callsOf('ban')).toHaveLength(0);
    const banned = await rig.run(['client', 'ban', '--reason', 'test', '--yes']);
    expect(banned.code, banned.stderr).toBe(0);
    expect(rig.callsOf('ban')[0]!.params).toMatchObject({ reason: 'test' });
  });

  it('change-username forgets the session the server ended', async () => {
    const rig = await clientRig();
    await registered(rig);
    const result = await rig.run(['client', 'change-username', 'alice2']);
    expect(result.code, result.stderr).toBe(0);
    expect(rig.callsOf('changeUsername')[0]!.params.newUsername).toBe('alice2');
    expect(rig.session()).toBeUndefined();
  });
});
