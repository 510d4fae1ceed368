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
