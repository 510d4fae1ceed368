/**
 * The app's security settings through kactl against a real sandbox: `kactl app set` turns on
 * the hash check and the token system (the real updatesettings has no such parameters; the
 * sandbox takes them), and `kactl client init --hash-file/--hash/--token-file` meets them.
 * On the old code `app set --hash-check` was an unknown option and init sent no hash or token.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 60_000;
let sb: E2ESandbox;
let dir: string;

beforeAll(async () => {
  sb = await startE2ESandbox();
  dir = tempDir();
});

describe('security settings through kactl (e2e)', () => {
  it('hash check: the first program hash is kept, another build is refused until added', async () => {
    const v1 = path.join(dir, 'loader-v1.exe');
    const v2 = path.join(dir, 'loader-v2.exe');
    writeFileSync(v1, 'program build one');
    writeFileSync(v2, 'program build two');
    await sb.ok(['app', 'set', '--hash-check', 'true']);
    const settings = await sb.json<{ sandbox: { hashcheck: boolean } }>(['app', 'settings', '--json']);
    expect(settings.sandbox.hashcheck).toBe(true);

    await sb.ok(['client', 'init', '--new', '--hash-file', v1]);
    const other = await sb.kactl(['client', 'init', '--new', '--hash-file', v2]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("This program hash does not match, make sure you're using latest version");

    const md5 = createHash('md5').update('program build two').digest('hex');
    await sb.ok(['app', 'hash', 'add', '--md5', md5]);
    await sb.ok(['client', 'init', '--new', '--hash', md5.toUpperCase()]);
    await sb.ok(['app', 'hash', 'reset', '--yes']);
    await sb.ok(['app', 'set', '--msg-hash-check-fail', 'Please update.']);
    await sb.ok(['client', 'init', '--new', '--hash-file', v2]);
    const refused = await sb.kactl(['client', 'init', '--new', '--hash-file', v1]);
    expect(refused.stderr).toContain('Please update.');
    await sb.ok(['app', 'set', '--hash-check', 'false']);
  }, SLOW);

  it('token system: init needs a registered token file, and the file may not change', async () => {
    const token = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const file = path.join(dir, 'token.txt');
    writeFileSync(file, `${token}\n`);
    await sb.ok(['app', 'set', '--token-system', 'true']);
    const none = await sb.kactl(['client', 'init', '--new']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Token Must Be Provided');
    const unknown = await sb.kactl(['client', 'init', '--new', '--token-file', file]);
    expect(unknown.stderr).toContain('Token Invalid');

    await sb.ok(['app', 'set', '--add-token', token]);
    await sb.ok(['client', 'init', '--new', '--token-file', file]);
    // Same token, different file bytes: the stored first hash no longer matches.
    writeFileSync(file, `${token}\r\n`);
    const changed = await sb.kactl(['client', 'init', '--new', '--token-file', file]);
    expect(changed.stderr).toContain('Token File Hashes Must Be The Same');
    await sb.ok(['app', 'set', '--token-system', 'false']);
  }, SLOW);

  it('tokens: listed in the settings, banned (init refused with the reason), unbanned, deleted', async () => {
    const token = 'b1b2c3d4e5f60718293a4b5c6d7e8f91';
    const other = 'c1b2c3d4e5f60718293a4b5c6d7e8f92';
    const file = path.join(dir, 'token-ban.txt');
    writeFileSync(file, token);
    await sb.ok(['app', 'set', '--token-system', 'true', '--add-token', token]);
    await sb.ok(['app', 'set', '--add-token', other]);
    await sb.ok(['client', 'init', '--new', '--token-file', file]);
    const tokens = async (): Promise<{ token: string; banned: boolean; reason: string | null; hashPinned: boolean }[]> =>
      (await sb.json<{ sandbox: { tokens: { token: string; banned: boolean; reason: string | null; hashPinned: boolean }[] } }>(['app', 'settings', '--json'])).sandbox.tokens;
    expect(await tokens()).toEqual(expect.arrayContaining([
      { token, banned: false, reason: null, hashPinned: true },
      { token: other, banned: false, reason: null, hashPinned: false },
    ]));

    await sb.ok(['app', 'set', '--ban-token', token, '--ban-reason', 'Leaked on a forum']);
    expect((await tokens()).find((t) => t.token === token)).toMatchObject({ banned: true, reason: 'Leaked on a forum' });
    const banned = await sb.kactl(['client', 'init', '--new', '--token-file', file]);
    expect(banned.code).toBe(1);
    expect(banned.stderr).toContain('The Token Has Been Blacklisted For The Following Reason: Leaked on a forum Contact Application Developer If This Is A Mistake');

    await sb.ok(['app', 'set', '--unban-token', token]);
    await sb.ok(['client', 'init', '--new', '--token-file', file]);

    await sb.ok(['app', 'set', '--delete-token', token]);
    expect((await tokens()).map((t) => t.token)).not.toContain(token);
    const gone = await sb.kactl(['client', 'init', '--new', '--token-file', file]);
    expect(gone.stderr).toContain('Token Invalid');

    const unknown = await sb.kactl(['app', 'set', '--ban-token', 'd'.repeat(32)]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Token not found');
    await sb.ok(['app', 'set', '--token-system', 'false', '--delete-token', other]);
  }, SLOW);

  it('bad input: a short --hash, both hash flags, a missing file, a bad token or CIDR', async () => {
    const short = await sb.kactl(['client', 'init', '--new', '--hash', 'abc']);
    expect(short.code).toBe(2);
    expect(short.stderr.split('\n')[0]).toBe('error: --hash takes an MD5 hash: 32 hex digits.');
    const both = await sb.kactl(['client', 'init', '--new', '--hash', 'a'.repeat(32), '--hash-file', 'x']);
    expect(both.code).toBe(2);
    const missing = await sb.kactl(['client', 'init', '--new', '--token-file', path.join(dir, 'nope.txt')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const badToken = await sb.kactl(['app', 'set', '--add-token', 'xyz']);
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain('addtoken must be 32 hex characters');
    const badRange = await sb.kactl(['app', 'set', '--vpn-ranges', '10.0.0.0/33']);
    expect(badRange.code).toBe(1);
    expect(badRange.stderr).toContain('vpnranges must be comma-separated CIDRs');
    expect(badRange.stderr).not.toMatch(/at .*\.js:\d+/);
  }, SLOW);
});
