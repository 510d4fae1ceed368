/**
 * Destructive actions: refusal without a terminal unless --yes (nothing sent), the backup
 * written before the change (and the change not made when the backup fails), --no-backup,
 * --dry-run, and single-record confirmation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeSeller, json, ok, SELLER_KEY, type Answers } from './helpers.js';
import { makeReadOnly, mountSupport } from '../../helpers/mounts.js';

const USERS = [
  { id: '1', username: 'alice', email: null, password: '$2y$hash', hwid: 'H1', app: 'APP-SECRET', owner: 'SellerAPI', createdate: '1700000000', lastlogin: null, banned: null, ip: '10.0.0.1', cooldown: '0' },
  { id: '2', username: 'bob', email: null, password: null, hwid: null, app: 'APP-SECRET', owner: 'SellerAPI', createdate: '1700000000', lastlogin: null, banned: null, ip: null, cooldown: '0' },
];

function backupFiles(configDir: string): string[] {
  const dir = path.join(configDir, 'data', 'backups');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
}

/** A server that lists USERS (what the backup reads) and answers `answers`. */
async function usersServer(answers: Answers) {
  return fakeSeller({ fetchallusers: () => json({ success: true, message: 'Successfully Retrieved Users', users: USERS }), ...answers });
}

const usersub: Answers[string] = (_req, params) =>
  json({ success: true, message: 'ok', subs: [{ id: '1', user: params.user, subscription: 'default', expiry: '1900000000', key: null, paused: '0' }] });

describe('changes to many records', () => {
  it('refuses without a terminal and without --yes: exit 2, nothing sent, no backup', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { code, stderr, stdout } = await seller.run(['users', 'delete', '--all']);
    expect(code).toBe(2);
    // The server and the profile are named (no profile here: the environment's settings).
    expect(stderr).toMatch(/Delete every user on http:\/\/127\.0\.0\.1:\d+ \(no profile: flags and environment\): add --yes to confirm \(there is no terminal to ask on\)\./);
    expect(stdout).toBe('');
    expect(seller.sent()).toEqual([]);
    expect(backupFiles(seller.configDir)).toEqual([]);
  });

  it('with --yes, backs up the list first (0600 in a 0700 folder), prints the path, then acts', async () => {
    const uservars = () => json({ success: true, message: 'ok', vars: [{ name: 'theme', data: 'dark', user: 'alice' }] });
    const seller = await usersServer({ delallusers: ok, usersub, fetchalluservars: uservars });
    const { code, stderr } = await seller.run(['users', 'delete', '--all', '--yes']);
    expect(code, stderr).toBe(0);
    // Deleted users are backed up with what makes them again: subscriptions and variables.
    expect(seller.sent().map((p) => p.type)).toEqual(['fetchallusers', 'usersub', 'usersub', 'fetchalluservars', 'delallusers']);
    const [file] = backupFiles(seller.configDir);
    expect(file).toBeDefined();
    expect(stderr).toContain(`Backup of 2 records written to ${file}`);
    expect(path.basename(file!)).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-kactl-delallusers\.json$/);
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file!)).mode & 0o777).toBe(0o700);
    const backup = JSON.parse(fs.readFileSync(file!, 'utf8'));
    expect(backup).toMatchObject({ kactl: 'backup', version: 1, action: { type: 'delallusers', command: 'users delete --all' }, source: { type: 'fetchallusers', key: 'users' } });
    // Everything the server sent but the password hashes (issue: hashes in backups).
    expect(backup.records).toEqual(USERS.map(({ password: _hash, ...rest }) => rest));
    expect(Object.keys(backup.subscriptions)).toEqual(['alice', 'bob']);
    expect(backup.uservars).toEqual([{ name: 'theme', data: 'dark', user: 'alice' }]);
    expect(backup.sellerKey).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(backup)).not.toContain('$2y$hash');
    expect(JSON.stringify(backup)).not.toContain('"password"');
    expect(JSON.stringify(backup)).not.toContain(SELLER_KEY);
  });

  it('lists never print password or hash fields, in any format', async () => {
    const seller = await fakeSeller({
      fetchallusers: () => json({ success: true, message: 'ok', users: USERS.map((u) => ({ ...u, password_hash: '$2b$other', hash: 'abc' })) }),
    });
    for (const format of [['--json'], ['-o', 'csv'], ['-o', 'ndjson'], []]) {
      const { code, stdout, stderr } = await seller.run(['users', 'list', ...format]);
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('alice');
      expect(stdout).not.toMatch(/\$2[by]\$|"?password|"hash"/);
    }
  });

  it('names the backup after the application when the profile knows it', async () => {
    const seller = await usersServer({ resetalluser: ok });
    await seller.run(['users', 'reset-hwid', '--all', '--yes'], { env: { KACTL_APP_NAME: 'My App!' } });
    expect(path.basename(backupFiles(seller.configDir)[0]!)).toMatch(/-My_App_-resetalluser\.json$/);
  });

  it("keeps each user's subscriptions in the backup of extend --all", async () => {
    const seller = await usersServer({ usersub, extend: ok });
    const { code, stderr } = await seller.run(['users', 'extend', '--all', '--sub', 'default', '--expiry', '2', '--yes']);
    expect(code, stderr).toBe(0);
    expect(seller.sent().map((p) => p.type)).toEqual(['fetchallusers', 'usersub', 'usersub', 'extend']);
    const backup = JSON.parse(fs.readFileSync(backupFiles(seller.configDir)[0]!, 'utf8'));
    expect(Object.keys(backup.subscriptions)).toEqual(['alice', 'bob']);
    expect(backup.subscriptions.alice[0]).toMatchObject({ subscription: 'default', expiry: '1900000000' });
  });

  it('with --no-backup, acts without listing or writing anything', async () => {
    const seller = await fakeSeller({ delexpusers: ok });
    const { code, stderr } = await seller.run(['users', 'delete', '--expired', '--yes', '--no-backup']);
    expect(code, stderr).toBe(0);
    expect(seller.sent().map((p) => p.type)).toEqual(['delexpusers']);
    expect(backupFiles(seller.configDir)).toEqual([]);
    expect(stderr).toContain('No backup (--no-backup).');
  });

  it('does not act when the backup cannot be made', async () => {
    const seller = await fakeSeller({ fetchallusers: () => ({ status: 500, body: 'Internal Server Error' }) });
    const { code, stderr } = await seller.run(['users', 'delete', '--all', '--yes']);
    expect(code).toBe(4);
    expect(stderr).toContain('The backup could not be made, so nothing was changed.');
    expect(seller.sent().map((p) => p.type)).toEqual(['fetchallusers']);
  });

  it.skipIf(mountSupport() !== undefined)('says once that nothing was changed when the backup cannot be written (33.7: it was said three times)', async () => {
    const seller = await usersServer({ usersub, fetchalluservars: () => json({ success: true, message: 'ok', vars: [] }) });
    const data = path.join(seller.configDir, 'data');
    fs.mkdirSync(data, { recursive: true });
    makeReadOnly(data);
    const { code, stderr } = await seller.run(['users', 'delete', '--all', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain("Can't write kactl's data folder");
    expect(stderr.match(/nothing was changed/gi)).toHaveLength(1);
    expect(seller.sent().map((p) => p.type)).not.toContain('delallusers');
  });

  it('names after the backup, one line a field with its count, what it cannot hold of the users (28.2)', async () => {
    const rows = [{ ...USERS[0], email: 'a9993e364706816aba3e25717850c26c9cd0d89d', '2fa': '1' }, USERS[1]];
    const seller = await fakeSeller({
      fetchallusers: () => json({ success: true, message: 'Successfully Retrieved Users', users: rows }),
      usersub,
      fetchalluservars: () => json({ success: true, message: 'ok', vars: [{ name: 'theme', data: 'dark', user: 'alice' }] }),
      delallusers: ok,
    });
    const { code, stderr } = await seller.run(['users', 'delete', '--all', '--yes']);
    expect(code, stderr).toBe(0);
    const said = stderr.split('\n').filter((l) => l.startsWith('Not in the backup'));
    expect(said).toEqual([
      'Not in the backup: the passwords of 2 users (alice, bob), which the seller API cannot read; kactl restore gives them a random one; set it with kactl users set-password USER --password-stdin.',
      'Not in the backup: the email addresses of 1 user (alice), which the seller API cannot read; give them to kactl restore with --email USER=ADDRESS.',
      'Not in the backup: the 2FA secrets of 1 user (alice), which no seller call reads or sets; they come back with 2FA off and turn it on again (kactl client 2fa enable).',
      "Not in the backup: the IPs of 1 user (alice), which no seller call sets; each comes back at the user's next login.",
      'Not in the backup: whether 1 user variable is read-only (the server does not list it); they come back writable; mark them again with kactl uservars set USER --name NAME --data VALUE --read-only.',
    ]);
  });

  it('backs up an empty list too, then lets the server answer', async () => {
    const seller = await fakeSeller({
      fetchallkeys: () => json({ success: false, message: 'No keys found' }, 406),
      delunused: () => json({ success: false, message: "Didn't find any unused keys!" }),
    });
    const { code, stderr } = await seller.run(['licenses', 'delete', '--unused', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain('Backup of 0 records');
    expect(stderr).toContain("Didn't find any unused keys!");
  });

  it('says why an action without a list has no backup', async () => {
    const seller = await fakeSeller({ delallwhites: ok });
    const { code, stderr } = await seller.run(['whitelists', 'delete', '--all', '--yes']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('No seller operation lists whitelisted IPs');
    expect(seller.sent().map((p) => p.type)).toEqual(['delallwhites']);
  });

  it('--dry-run prints the request with the seller key masked and sends nothing', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { code, stdout, stderr } = await seller.run(['users', 'extend', '--all', '--sub', 'default', '--expiry', '2', '--dry-run']);
    expect(code, stderr).toBe(0);
    expect(seller.sent()).toEqual([]);
    expect(stdout).toBe(`GET ${seller.server.baseUrl}/api/seller/?sellerkey=${SELLER_KEY.slice(0, 4)}…&type=extend&sub=default&expiry=2&user=all\n`);
    expect(stdout + stderr).not.toContain(SELLER_KEY);
    expect(stderr).toContain('Dry run: nothing was sent');
    expect(backupFiles(seller.configDir)).toEqual([]);
  });

  it('--dry-run --json prints the requests as JSON', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { stdout } = await seller.run(['licenses', 'delete', '--all', '--dry-run', '--json']);
    expect(JSON.parse(stdout)).toEqual({ dryRun: true, requests: [{ method: 'GET', url: expect.stringContaining('type=delalllicenses'), type: 'delalllicenses', params: {} }] });
    expect(seller.sent()).toEqual([]);
  });
});

describe('single-record deletes', () => {
  it('refuse without a terminal unless --yes, naming --yes', async () => {
    const seller = await fakeSeller({ delvar: ok });
    const refused = await seller.run(['vars', 'delete', 'motd']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Delete a global variable \(motd\) on http:\/\/127\.0\.0\.1:\d+ \(no profile: flags and environment\): add --yes/);
    expect(seller.sent()).toEqual([]);
    const done = await seller.run(['vars', 'rm', 'motd', '-y']);
    expect(done.code, done.stderr).toBe(0);
    expect(seller.sent().map((p) => p.type)).toEqual(['delvar']);
    expect(backupFiles(seller.configDir)).toEqual([]);
  });

  it('--dry-run sends nothing and needs no --yes', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { code, stdout } = await seller.run(['sessions', 'kill', 'a1b2c3d4e5', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('type=kill&sessid=');
    expect(seller.sent()).toEqual([]);
  });

  it('plain writes run without confirmation', async () => {
    const seller = await fakeSeller({ banuser: ok });
    const { code } = await seller.run(['users', 'ban', 'alice', '--reason', 'spam']);
    expect(code).toBe(0);
    expect(seller.sent().map((p) => p.type)).toEqual(['banuser']);
  });
});
