/**
 * Issue 10 item 7, each reproduction: one --json error shape for every command, stack traces
 * only for faults, no "warning: Warning:", CI=1 on a terminal is not "no terminal", license key
 * files are 0600, a daily quota is named as one, and a level no subscription has is warned about.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closedPort } from '../api/helpers/servers.js';
import { fakeSeller, json, noKeys } from '../seller/helpers.js';
import { clientRig } from '../client/rig.js';

describe('one --json error shape on stdout', () => {
  it('seller refusal, client network failure and usage error all print {success:false, message, error:{code, message}}', async () => {
    const seller = await fakeSeller({ verify: () => json({ success: false, message: 'Key Not Found' }) });
    const refused = await seller.run(['licenses', 'verify', 'NOPE', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ success: false, message: 'Key Not Found', error: { code: 1, message: 'Key Not Found' } });

    const port = await closedPort();
    const env = { KACTL_CONFIG_DIR: tempDir(), KACTL_BASE_URL: `http://127.0.0.1:${port}`, KACTL_APP_NAME: 'app', KACTL_OWNERID: 'AbCdEf1234', KACTL_PUBLIC_KEY: 'ab'.repeat(32) };
    const client = await runMain(['client', 'init', '--json'], { env });
    expect(client.code).toBe(4);
    const shape = JSON.parse(client.stdout);
    expect(shape).toMatchObject({ success: false, error: { code: 4 } });
    expect(shape.message).toBe(shape.error.message);
    expect(client.stderr).toContain(shape.message);

    const usage = await runMain(['client', 'init', '-o', 'json'], { env: { KACTL_CONFIG_DIR: tempDir() } });
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ success: false, error: { code: 2, message: expect.stringMatching(/^No server base URL is configured/) } });
  });
});

describe('--verbose stack traces', () => {
  it('an ordinary refusal prints none; a fault does', async () => {
    const seller = await fakeSeller({
      verify: () => json({ success: false, message: 'Key Not Found' }),
      fetchallkeys: () => json({ success: false, message: 'Error: database is down' }, 500),
    });
    const refusal = await seller.run(['licenses', 'verify', 'NOPE', '--verbose']);
    expect(refusal.code).toBe(1);
    expect(refusal.stderr).not.toMatch(/\n\s+at /);
    const fault = await seller.run(['licenses', 'list', '--verbose']);
    expect(fault.code).toBe(4);
    expect(fault.stderr).toMatch(/\n\s+at /);
  });
});

describe('small untruths', () => {
  it('--no-verify warns once, without "warning: Warning:"', async () => {
    const rig = await clientRig();
    const result = await rig.run(['client', 'init', '--no-verify']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("warning: Not checking the server's answer signatures (--no-verify).");
    expect(result.stderr).not.toMatch(/warning: warning:/i);
  });

  it('CI=1 on a terminal says CI is why it does not ask, not that there is no terminal', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const result = await seller.run(['licenses', 'create'], { env: { CI: '1' }, stdinTTY: true, stderrTTY: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --expiry');
    expect(result.stderr).toContain('CI is set, so kactl does not ask');
    expect(result.stderr).not.toContain('no terminal');
    expect(seller.sent()).toEqual([]);
  });

  it('licenses create --out writes the keys 0600, also over an existing file with --force', async () => {
    const seller = await fakeSeller({ fetchallkeys: noKeys, add: () => json({ success: true, message: 'ok', key: 'KEY-1' }) });
    const file = path.join(tempDir(), 'keys.txt');
    const first = await seller.run(['licenses', 'create', '--expiry', '30', '--out', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o644);
    const again = await seller.run(['licenses', 'create', '--expiry', '30', '--out', file, '--force']);
    expect(again.code, again.stderr).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('KEY-1\n');
  });

  it('a stop at the daily quota names the 24-hour limit instead of "run again with --amount N"', async () => {
    let calls = 0;
    const seller = await fakeSeller({
      fetchallkeys: noKeys,
      add: (_req, params) => {
        calls++;
        if (calls > 2) return json({ success: false, message: 'You can only generate 5000 keys per 24 hours with SellerAPI.' }, 429);
        return json({ success: true, message: 'ok', keys: Array.from({ length: Number(params.amount) }, (_, i) => `K-${calls}-${i}`) });
      },
    });
    const result = await seller.run(['licenses', 'create', '--amount', '400', '--expiry', '30', '--out', path.join(tempDir(), 'k.txt')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Created 200 of 400 licenses');
    expect(result.stderr).toMatch(/per 24 hours/);
    expect(result.stderr).not.toMatch(/Run again with --amount 200 to make the rest/);
  });

  it('warns when keys are made at a level no subscription has, and not when one has it', async () => {
    const seller = await fakeSeller({
      fetchallsubs: () => json({ success: true, message: 'ok', subs: [{ name: 'default', level: '1' }] }),
      fetchallkeys: noKeys,
      add: () => json({ success: true, message: 'ok', key: 'KEY-1' }),
    });
    const lonely = await seller.run(['licenses', 'create', '--expiry', '30', '--level', '2']);
    expect(lonely.code, lonely.stderr).toBe(0);
    expect(lonely.stderr).toContain('No subscription has level 2 (the subscriptions have level 1)');
    const matched = await seller.run(['licenses', 'create', '--expiry', '30', '--level', '1']);
    expect(matched.code, matched.stderr).toBe(0);
    expect(matched.stderr).not.toContain('No subscription has level');
  });
});
