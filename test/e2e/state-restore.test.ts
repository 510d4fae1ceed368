/**
 * Backups and `kactl restore` keep their promise (issue 20), through the built CLI against real
 * sandboxes: used, unused and banned keys, users with their subscriptions, HWIDs, variables and
 * bans, and webhooks come back as they were after `licenses delete --all`, `users delete --all`
 * and `webhooks delete --all`; the export afterwards equals the one before, and the same holds
 * through `export` and `apply` into a second sandbox. A restored user has no password anyone
 * knows; a backup of another sandbox is refused; records on the server are left as they are;
 * a replace that fails puts the old record back; Ctrl-C exits 130 with the command that finishes.
 *
 * Issue 28: the seed has a license customer (made by `client license`), an emailed user with a
 * read-only variable and a user with 2FA on; after delete → restore each signs in the way they
 * could before: the customer with the key, the emailed user through a password reset mail, and
 * the 2FA user (named by the plan, whose secret cannot come back) with a password the seller sets.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { failingProxy } from '../helpers/failing-proxy.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const HWID = 'e2e-restore-hwid-0000-0001';
const HOOK_URL = 'https://hooks.example.test/pay/0001?token=abc';
const SLOW = 120_000;

let a: E2ESandbox;
let b: E2ESandbox;

beforeAll(async () => {
  [a, b] = await Promise.all([startE2ESandbox(), startE2ESandbox()]);
  await Promise.all([a.ok(['profile', 'add', 'sandbox', '--hwid', HWID]), b.ok(['profile', 'add', 'sandbox', '--hwid', HWID])]);
});

afterAll(async () => {
  await Promise.all([a.stop(), b.stop()]);
});

function backupOf(stderr: string): string {
  const file = /written to (\S+)/.exec(stderr)?.[1];
  expect(file, stderr).toBeDefined();
  return file!;
}

function writeFile(name: string, text: string): string {
  const file = path.join(tempDir('kactl-restore-'), name);
  fs.writeFileSync(file, text);
  return file;
}

async function exported(sb: E2ESandbox): Promise<string> {
  return (await sb.ok(['export'])).stdout;
}

/** Keys used, unused and banned; users with two subscriptions, an HWID, a variable, a ban; webhooks. */
async function populate(sb: E2ESandbox): Promise<void> {
  await sb.ok(['subs', 'create', '--name', 'pro', '--level', '2']);
  await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30', '--mask', 'RT-USED-0001']);
  await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '3', '--mask', 'RT-UNUSED-0001', '--note', 'costs $5']);
  await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '0.5', '--mask', 'RT-BANNED-0001', '--level', '2']);
  await sb.ok(['licenses', 'ban', 'RT-BANNED-0001', '--reason', 'chargeback']);
  // The used key: redeemed by a client, which makes a user named after it.
  await sb.ok(['client', 'init', '--new']);
  await sb.ok(['client', 'license', '--key', 'RT-USED-0001']);
  await sb.ok(['users', 'create', '--username', 'bob', '--password', 'bob-pass-0001', '--sub', 'default', '--expiry', '30']);
  await sb.ok(['users', 'extend', 'bob', '--sub', 'pro', '--expiry', '10.5']);
  await sb.ok(['users', 'add-hwid', 'bob', '--hwid', 'BOB-HWID-000000000000001']);
  await sb.ok(['users', 'set-email', 'bob', '--email', 'bob@example.test']);
  await sb.ok(['seller', 'call', 'setvar', 'user=bob', 'var=theme', 'data=dark', 'readOnly=1']);
  await sb.ok(['users', 'create', '--username', 'carol', '--password', 'carol-pass-1', '--sub', 'pro', '--expiry', '7']);
  await sb.ok(['users', 'ban', 'carol', '--reason', 'fraud']);
  // tina turns 2FA on from her program.
  await sb.ok(['users', 'create', '--username', 'tina', '--password', 'tina-pass-0001', '--sub', 'default', '--expiry', '30']);
  await sb.ok(['client', 'init', '--new']);
  await sb.ok(['client', 'login', '--username', 'tina', '--password-stdin'], { input: 'tina-pass-0001' });
  const secret = (await sb.json<{ '2fa': { secret_code: string } }>(['client', '2fa', 'enable']))['2fa'].secret_code;
  await sb.ok(['client', '2fa', 'enable', '--code', new TOTP({ secret }).generate()]);
  await sb.ok(['webhooks', 'create', '--url', HOOK_URL, '--id', 'payhook', '--require-login']);
  await sb.ok(['webhooks', 'create', '--url', 'https://a.test/x', '--id', 'short']);
}

describe('kactl restore after deleting keys, users and webhooks', () => {
  let backups: string[] = [];
  let before = '';

  it('puts back used keys as used, users with their state, and webhooks with the URL given (20.1, 20.2, 20.3)', async () => {
    await populate(a);
    before = await exported(a);
    expect(before).toContain('  - key: RT-USED-0001\n    level: 1\n    duration: 30d\n    status: used\n    used_by: RT-USED-0001\n');
    expect(before).toContain('  - key: RT-BANNED-0001\n    level: 2\n    duration: 12h\n    status: banned\n    ban_reason: chargeback\n');
    // What the sandbox knows beyond the hosted lists comes out too: the key that granted a subscription, a read-only variable.
    expect(before).toMatch(/ {2}- username: RT-USED-0001\n {4}subscriptions:\n {6}- name: default\n {8}expiry: \S+\n {8}key: RT-USED-0001\n/);
    expect(before).toContain('  - username: bob\n    name: theme\n    value: dark\n    readonly: true\n');

    const keys = await a.ok(['licenses', 'delete', '--all', '--yes']);
    const users = await a.ok(['users', 'delete', '--all', '--yes']);
    const hooks = await a.ok(['webhooks', 'delete', '--all', '--yes']);
    // Said before the delete, while the URL is still known to whoever runs it.
    const warned = hooks.stderr.indexOf('The server shows only the first 21 characters of these webhook URLs, so the backup cannot hold them whole: payhook (https://hooks.example…). Keep the URLs: kactl restore will ask for them (--url ID=URL).');
    expect(warned, hooks.stderr).toBeGreaterThanOrEqual(0);
    expect(hooks.stderr.indexOf('Backup of 2 records')).toBeGreaterThan(warned);
    backups = [backupOf(keys.stderr), backupOf(users.stderr), backupOf(hooks.stderr)];
    const userBackup = JSON.parse(fs.readFileSync(backups[1]!, 'utf8')) as { subscriptions: Record<string, unknown[]>; uservars: unknown[]; sellerKey: string };
    expect(Object.keys(userBackup.subscriptions).sort()).toEqual(['RT-USED-0001', 'bob', 'carol', 'tina']);
    expect(userBackup.uservars).toEqual([expect.objectContaining({ user: 'bob', name: 'theme', data: 'dark', readOnly: '1' })]);
    // What the backup cannot hold is said at the delete, one line a field with its count (28.2).
    for (const said of [
      'Not in the backup: the passwords of 3 users (bob, carol, tina)',
      '1 license customer (RT-USED-0001): kactl restore gives them their key as password again',
      'Not in the backup: the email addresses of 1 user (bob), which the seller API cannot read; give them to kactl restore with --email USER=ADDRESS.',
      'Not in the backup: the 2FA secrets of 1 user (tina)',
      'Not in the backup: the IPs of 2 users (RT-USED-0001, tina)',
    ]) expect(users.stderr).toContain(said);
    expect(userBackup.sellerKey).toMatch(/^[0-9a-f]{32}$/);

    // Without the webhook's URL: everything else comes back, the webhook is said and left out.
    const partial = await a.kactl(['restore', ...backups, '--yes', '--email', 'bob=bob@example.test']);
    expect(partial.code, partial.stderr).toBe(1);
    expect(partial.stdout).toMatch(/\+ create user RT-USED-0001 \(license customer: password = key, subscription default until \S+ \(granted by key RT-USED-0001\)/);
    expect(partial.stdout).toMatch(/\+ create user bob \(.*email "bob@example.test"/);
    expect(partial.stdout).toMatch(/\+ create user tina \(.*2FA off: its secret cannot come back\)/);
    expect(partial.stdout).toContain('+ create uservar bob/theme (value "dark", read-only)');
    expect(partial.stderr).toContain('Not put back: the 2FA secrets of 1 user (tina)');
    expect(partial.stderr).not.toContain('email addresses');
    expect(partial.stderr).toContain('webhook payhook: only the start of its URL is known ("https://hooks.example…"), so it is not created; give the whole URL with --url payhook=URL.');
    expect(partial.stdout).toContain('+ create license RT-USED-0001 (level 1, duration 30d, used by RT-USED-0001)');
    expect(partial.stdout).not.toContain('create webhook payhook');
    expect(partial.stderr).toContain('3 users have a random password nobody knows');
    expect(partial.stderr).toContain('kactl users set-password USER --password-stdin');
    expect(partial.stderr).toMatch(/but 1 record could not be put back/);

    const used = JSON.parse((await a.ok(['licenses', 'get', 'RT-USED-0001', '--json'])).stdout) as Record<string, string>;
    expect(used).toMatchObject({ status: 'Used', usedby: 'RT-USED-0001', duration: '2592000' });
    const banned = (JSON.parse((await a.ok(['licenses', 'list', '--json'])).stdout) as Record<string, string>[]).find((k) => k.key === 'RT-BANNED-0001');
    expect(banned).toMatchObject({ status: 'Banned', banned: 'chargeback', expires: '43200' });

    const done = await a.ok(['restore', ...backups, '--yes', '--url', `payhook=${HOOK_URL}`]);
    expect(done.stdout).toBe('+ create webhook payhook (https://hooks.example… (--url), authed true, useragent "KeyAuth")\nPlan: 1 to create, 0 to update, 0 to replace, 0 to delete.\n');
    expect(await exported(a)).toBe(before);

    // A second restore changes nothing, and says so only because it is true.
    const again = await a.ok(['restore', ...backups, '--yes']);
    expect(again.stdout).toBe(`Nothing to put back: every record in ${backups.join(', ')} is on the server.\n`);
    expect(await exported(a)).toBe(before);
  }, SLOW);

  it('a restored user cannot be signed in to with a guessed password, only with one the seller sets (20.8)', async () => {
    await a.ok(['client', 'init', '--new']);
    for (const guess of ['attacker-choice', 'bob-pass-0001']) {
      const tried = await a.kactl(['client', 'login', '--username', 'bob', '--password-stdin'], { input: guess });
      expect(tried.code, tried.stdout).toBe(1);
      expect(tried.stderr).toContain('Password does not match.');
    }
    // bob's email came back (--email): the reset mail reaches him, and its page sets his password.
    await a.ok(['client', 'forgot', '--username', 'bob', '--email', 'bob@example.test']);
    const mail = (await a.outbox()).filter((m) => m.kind === 'password-reset').at(-1);
    expect(mail?.to).toBe('bob@example.test');
    const reset = await fetch(mail!.link!, { method: 'POST', body: new URLSearchParams({ password: 'bob-new-pass-1', confirm: 'bob-new-pass-1' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await reset.text()).toContain('Password changed');
    await a.ok(['client', 'init', '--new']);
    // From bob's machine: the HWID lock holds the HWID that came back with him.
    const elsewhere = await a.kactl(['client', 'login', '--username', 'bob', '--password-stdin'], { input: 'bob-new-pass-1' });
    expect(elsewhere.stderr).toContain("HWID doesn't match");
    const signed = JSON.parse((await a.ok(['client', 'login', '--username', 'bob', '--password-stdin', '--json', '--hwid', 'BOB-HWID-000000000000001'], { input: 'bob-new-pass-1' })).stdout) as { info: { subscriptions: { subscription: string }[] } };
    expect(signed.info.subscriptions.map((s) => s.subscription).sort()).toEqual(['default', 'pro']);
    // His read-only variable stayed read-only (28.2: the client could overwrite it).
    const overwrite = await a.kactl(['client', 'var', 'set', 'theme', 'hacked']);
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain('read only');
  }, SLOW);

  it('the license customer signs in with the key as before, and the 2FA user with a password the seller sets, without a code (28.1, 28.2)', async () => {
    await a.ok(['client', 'init', '--new']);
    const customer = await a.kactl(['client', 'license', '--key', 'RT-USED-0001']);
    expect(customer.code, customer.stderr).toBe(0);
    expect((await a.ok(['users', 'subscriptions', 'RT-USED-0001'])).stdout).toMatch(/default\t\S+\tRT-USED-0001\tno/);
    await a.ok(['users', 'set-password', 'tina', '--password-stdin'], { input: 'tina-new-pass-1' });
    await a.ok(['client', 'init', '--new']);
    await a.ok(['client', 'login', '--username', 'tina', '--password-stdin'], { input: 'tina-new-pass-1' });
  }, SLOW);

  it('export then apply to a second sandbox gives an equal export', async () => {
    const now = await exported(a);
    const file = writeFile('a.yaml', now);
    const applied = await b.kactl(['apply', '-f', file, '--url', `payhook=${HOOK_URL}`]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await exported(b)).toBe(now);
    expect((await b.ok(['apply', '-f', file])).stdout).toBe(`No changes: the server already matches ${file}.\n`);
  }, SLOW);

  it("refuses a backup of another server or app without --force, and leaves records on the server as they are (20.9)", async () => {
    const into = await b.kactl(['restore', backups[0]!, '--yes']);
    expect(into.code).toBe(2);
    expect(into.stderr).toContain(`${backups[0]} was made for application "${a.info.app.name}" on ${a.info.baseUrl}, and this profile uses ${b.info.baseUrl}. Add --force to put its records here anyway.`);
    const forced = await b.ok(['restore', backups[0]!, '--yes', '--force']);
    expect(forced.stderr).toContain('restoring anyway (--force)');
    expect(forced.stdout).toContain('Nothing to put back');

    // A backup saying payhook points elsewhere does not replace the live payhook.
    const hooks = JSON.parse(fs.readFileSync(backups[2]!, 'utf8')) as { records: Record<string, unknown>[] };
    hooks.records = hooks.records.map((w) => (w.webid === 'payhook' ? { ...w, short_baselink: 'https://evil.example.t' } : w));
    const planted = writeFile('planted.json', JSON.stringify(hooks));
    const kept = await a.ok(['restore', planted, '--yes', '--url', 'payhook=https://evil.example.test/steal']);
    expect(kept.stdout).toContain('Nothing to put back');
    const listed = JSON.parse((await a.ok(['webhooks', 'list', '--json'])).stdout) as { webid: string; short_baselink: string }[];
    expect(listed.find((w) => w.webid === 'payhook')?.short_baselink).toBe(HOOK_URL.slice(0, 21));
  }, SLOW);
});

describe('apply refuses before the first call, and a failed replace loses nothing (20.10)', () => {
  it('refuses bad durations and URLs with their line, and keeps the key', async () => {
    await a.ok(['licenses', 'create', '--amount', '1', '--expiry', '30', '--mask', 'CI-KEY-0001']);
    for (const [body, message] of [
      ['licenses:\n  - { key: CI-KEY-0001, level: 2, expiry: -3 }\n', 'line 2: licenses[0].expiry: expected more than 0.'],
      ['licenses:\n  - { key: CI-KEY-0001, level: 2, expiry: .nan }\n', 'line 2: licenses[0].expiry: expected string or number, found .nan.'],
      ['licenses:\n  - { key: CI-KEY-0001, level: 2, expiry: .inf }\n', 'line 2: licenses[0].expiry: expected string or number, found .inf.'],
      ['webhooks:\n  - { id: w1, url: "ftp://files.example.test/x", authed: false }\n', 'line 2: webhooks[0].url: "ftp://files.example.test/x" is not valid here'],
    ] as const) {
      const result = await a.kactl(['apply', '-f', writeFile('bad.yaml', body)]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
    const key = JSON.parse((await a.ok(['licenses', 'get', 'CI-KEY-0001', '--json'])).stdout) as Record<string, string>;
    expect(key).toMatchObject({ level: '1', duration: '2592000' });
  }, SLOW);

  it('makes the new key under another name first; when the real one is still refused, puts the old one back and says so', async () => {
    // The server refuses the second `add`: the probe passes, the key made again does not.
    const proxy = await failingProxy(a.info.baseUrl, 'add', 2);
    try {
      const result = await a.kactl(['apply', '-f', writeFile('level.yaml', 'licenses:\n  - { key: CI-KEY-0001, level: 2, expiry: 30d }\n'), '--base-url', proxy.baseUrl]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('± replace license CI-KEY-0001 (level: 1 → 2)');
      expect(result.stderr).toMatch(/Half done: license CI-KEY-0001 was deleted, the new one was refused \(.*500.*\), and the old one was put back as it was\./);
    } finally {
      await proxy.close();
    }
    const key = JSON.parse((await a.ok(['licenses', 'get', 'CI-KEY-0001', '--json'])).stdout) as Record<string, string>;
    expect(key).toMatchObject({ level: '1', duration: '2592000', status: 'Not Used' });
    expect((JSON.parse((await a.ok(['licenses', 'list', '--json'])).stdout) as { key: string }[]).filter((k) => k.key.startsWith('KACTL-PROBE-'))).toEqual([]);
  }, SLOW);
});

describe('a paced restore (20.6)', () => {
  it('says how long it takes, and Ctrl-C exits 130 with the command that finishes the job', async () => {
    const sb = await startE2ESandbox();
    try {
      await sb.ok(['licenses', 'create', '--amount', '12', '--expiry', '1']);
      const backup = backupOf((await sb.ok(['licenses', 'delete', '--all', '--yes'])).stderr);
      // Each key a note of its own: nothing goes together, so each key is a call, as on a server
      // that takes one key a call.
      const saved = JSON.parse(fs.readFileSync(backup, 'utf8')) as { records: Record<string, unknown>[] };
      saved.records = saved.records.map((key, i) => ({ ...key, note: `note ${i}` }));
      fs.writeFileSync(backup, JSON.stringify(saved));
      // Paced at 8 calls a minute (half of it spent on the create and the delete): the restore soon waits for the budget.
      await sb.ok(['profile', 'add', 'sandbox', '--seller-rate', '8']);
      const child = spawn(process.execPath, [KACTL_BIN, 'restore', backup, '--yes'], { env: cleanEnv(sb.configDir), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const waiting = new Promise<void>((resolve) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/Pacing: waiting/.test(stderr)) resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await waiting;
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toMatch(/12 calls at 8 a minute: about \d+m/);
      const command = /To finish, run: (.+)$/m.exec(stderr)?.[1];
      expect(command).toBe(`kactl restore ${backup} --yes`);
      // Unpaced from here, to keep the test short.
      await sb.ok(['profile', 'add', 'sandbox', '--seller-rate', '0']);
      const left = (JSON.parse((await sb.ok(['licenses', 'list', '--json'])).stdout) as unknown[]).length;
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(12);
      // The command it said finishes the job.
      await sb.ok(command!.split(' ').slice(1));
      expect((JSON.parse((await sb.ok(['licenses', 'list', '--json'])).stdout) as unknown[]).length).toBe(12);
    } finally {
      await sb.stop();
    }
  }, SLOW);
});
