/**
 * Flags → wire parameters, checked on what a real loopback server received, for operations of
 * every parameter type; and the refusals (bad values, missing values, stray flags) that stop
 * before anything is sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fakeSeller, json, noKeys, ok, withoutAuth } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** `getbalance` succeeds only with its `balance` record (answers are checked for their fields). */
const BALANCE = { getbalance: () => json({ success: true, message: 'ok', balance: { month: 0 } }) };

/** Runs one command against a fresh fake server that answers `type`; returns what the server got. */
async function sentBy(type: string, args: readonly string[], options: { stdin?: string } = {}): Promise<Record<string, string>> {
  const seller = await fakeSeller(type === 'getbalance' ? BALANCE : { [type]: ok });
  const result = await seller.run(args, options);
  expect(result.code, result.stderr).toBe(0);
  const sent = seller.sent();
  expect(sent).toHaveLength(1);
  return withoutAuth(sent[0]!);
}

describe('flags to wire parameters', () => {
  it.each([
    ['string flags, a secret and a number of days', ['users', 'create', '--username', 'alice', '--password', 'pw1', '--sub', 'default', '--expiry', '30'], { type: 'adduser', user: 'alice', pass: 'pw1', sub: 'default', expiry: '30' }],
    ['a fraction of a day', ['licenses', 'add-time', '--days', '0.5', '--yes', '--no-backup'], { type: 'addtime', time: '0.5' }],
    ['an integer and a positional with its own wire name', ['subs', 'edit', 'premium', '--level', '3'], { type: 'editsub', sub: 'premium', level: '3' }],
    ['bool01 given: 1', ['licenses', 'delete', 'KEY-1', '--user-too', '--yes'], { type: 'del', key: 'KEY-1', userToo: '1' }],
    ['optional bool01 absent: not sent', ['licenses', 'delete', 'KEY-1', '--yes'], { type: 'del', key: 'KEY-1' }],
    ['required bool01 absent: 0', ['vars', 'create', '--name', 'motd', '--data', 'hi'], { type: 'addvar', name: 'motd', data: 'hi', authed: '0' }],
    ['required bool01 given: 1', ['vars', 'create', '--name', 'motd', '--data', 'hi', '--require-login'], { type: 'addvar', name: 'motd', data: 'hi', authed: '1' }],
    ['negatable bool01 absent: not sent (the file keeps its rule)', ['files', 'edit', '123456', '--url', 'https://files.example.com/a.zip'], { type: 'editfile', id: '123456', url: 'https://files.example.com/a.zip' }],
    ['negatable bool01 on: 1', ['files', 'edit', '123456', '--url', 'https://files.example.com/a.zip', '--require-login'], { type: 'editfile', id: '123456', url: 'https://files.example.com/a.zip', authed: '1' }],
    ['negatable bool01 off: 0', ['files', 'edit', '123456', '--url', 'https://files.example.com/a.zip', '--no-require-login'], { type: 'editfile', id: '123456', url: 'https://files.example.com/a.zip', authed: '0' }],
    ['booltext', ['app', 'set', '--hwid-lock', 'false', '--app-version', '1.2'], { type: 'updatesettings', hwidcheck: 'false', ver: '1.2' }],
    ['enum', ['blacklists', 'delete', '203.0.113.7', '--type', 'ip', '--yes'], { type: 'delblack', data: '203.0.113.7', blacktype: 'ip' }],
    ['the wire name `username` of pauseuser', ['users', 'pause', 'alice'], { type: 'pauseuser', username: 'alice' }],
    ['camelCase wire names', ['users', 'rename', 'alice', '--new-username', 'alice2', '--session-id', 'abc'], { type: 'editusername', currentUsername: 'alice', newUsername: 'alice2', sessionID: 'abc' }],
    ['fixed user=all of a selector variant', ['users', 'extend', '--all', '--sub', 'default', '--expiry', '2', '--active-only', '--yes', '--no-backup'], { type: 'extend', user: 'all', sub: 'default', expiry: '2', activeOnly: '1' }],
    ['setvar for everyone', ['uservars', 'set', '--all', '--name', 'tier', '--data', 'gold', '--yes', '--no-backup'], { type: 'setvar', user: 'all', var: 'tier', data: 'gold' }],
    ['the same flag on two wire names (deluservar var)', ['uservars', 'delete', 'alice', '--name', 'discord', '--yes'], { type: 'deluservar', user: 'alice', var: 'discord' }],
    ['the same flag on two wire names (massUserVarDelete name)', ['uservars', 'delete', '--all', '--name', 'discord', '--yes', '--no-backup'], { type: 'massUserVarDelete', name: 'discord' }],
    ['a selector with no parameters', ['sessions', 'kill', '--all', '--yes', '--no-backup'], { type: 'killall' }],
    ['reseller balance counts', ['team', 'add-balance', 'shop1', '--month-keys', '20', '--three-month-keys', '1'], { type: 'setbalance', username: 'shop1', month: '20', threemonth: '1' }],
    // 23.11: one duration syntax for every flag with a unit, sent in the unit the wire takes.
    ['a duration with its unit where the flag counts days', ['users', 'extend', 'alice', '--sub', 'default', '--expiry', '2w'], { type: 'extend', user: 'alice', sub: 'default', expiry: '14' }],
    ['hours as a fraction of a day', ['licenses', 'add-time', '--days', '12h', '--yes', '--no-backup'], { type: 'addtime', time: '0.5' }],
    ['days where the flag counts seconds', ['licenses', 'edit', 'KEY-1', '--seconds', '30d'], { type: 'edit', key: 'KEY-1', expiry: '2592000' }],
    ['minutes where the flag counts seconds', ['users', 'subtract', 'alice', '--sub', 'default', '--seconds', '90m'], { type: 'subtract', user: 'alice', sub: 'default', seconds: '5400' }],
    ['a catalog flag spelt like a global option', ['team', 'balance', 'shop1', '--app-name', 'MyApp'], { type: 'getbalance', username: 'shop1', appname: 'MyApp' }],
  ] as const)('%s', async (_what, args, expected) => {
    expect(await sentBy(expected.type, args)).toEqual(expected);
  });

  it('licenses create --expiry 30d makes keys of 30 days (it was refused: "Give a number of days")', async () => {
    const seller = await fakeSeller({ fetchallkeys: noKeys, add: () => json({ success: true, message: 'License Successfully Generated', key: 'K-1' }) });
    const result = await seller.run(['licenses', 'create', '--expiry', '30d']);
    expect(result.code, result.stderr).toBe(0);
    expect(seller.sent().map(withoutAuth).find((p) => p.type === 'add')).toEqual({ type: 'add', expiry: '30', amount: '1' });
  });

  it('reads a secret from --password-stdin', async () => {
    expect(await sentBy('resetpw', ['users', 'set-password', 'alice', '--password-stdin'], { stdin: 's3cret!\n' })).toEqual({ type: 'resetpw', user: 'alice', passwd: 's3cret!' });
  });

  it('joins delete-many keys with the ", " the server splits on, from any separators or stdin', async () => {
    expect(await sentBy('delmultiple', ['licenses', 'delete-many', '--keys', 'A-1,B-2  C-3\nD-4', '--yes', '--no-backup'])).toEqual({ type: 'delmultiple', key: 'A-1, B-2, C-3, D-4' });
    expect(await sentBy('delmultiple', ['licenses', 'delete-many', '--keys', '-', '--yes', '--no-backup'], { stdin: 'A-1\nB-2\n' })).toEqual({ type: 'delmultiple', key: 'A-1, B-2' });
  });

  it('hashes a program file locally for app hash add --file', async () => {
    const file = path.join(tempDir(), 'app.exe');
    fs.writeFileSync(file, 'program bytes');
    const md5 = createHash('md5').update('program bytes').digest('hex');
    expect(await sentBy('addhash', ['app', 'hash', 'add', '--file', file])).toEqual({ type: 'addhash', hash: md5 });
  });

  it("defaults team balance's application name to the profile's", async () => {
    const seller = await fakeSeller(BALANCE);
    const result = await seller.run(['team', 'balance', 'shop1'], { env: { KACTL_APP_NAME: 'FromEnv' } });
    expect(result.code, result.stderr).toBe(0);
    expect(withoutAuth(seller.sent()[0]!)).toEqual({ type: 'getbalance', username: 'shop1', appname: 'FromEnv' });
  });
});

describe('refusals before anything is sent', () => {
  it.each([
    ['a required flag without a terminal names the flag', ['users', 'create', '--username', 'alice', '--sub', 'default'], 'Missing --expiry'],
    ['a required secret without a terminal names both ways', ['licenses', 'activate', 'KEY', '--username', 'bob'], 'Missing --password or --password-stdin'],
    ['a number that is not one names the unit', ['licenses', 'create', '--expiry', 'soon'], 'Give a number of days'],
    ['a whole number that is not one names the unit', ['users', 'subtract', 'alice', '--sub', 'default', '--seconds', '1.5'], 'Give a whole number of seconds'],
    ['a duration that is not whole seconds', ['licenses', 'edit', 'KEY', '--seconds', '500ms'], 'Give a whole number of seconds or a duration such as 45s, 90m, 12h, 30d or 2w.'],
    ['an enum outside its choices', ['blacklists', 'delete', 'x', '--type', 'mac', '--yes'], 'Allowed choices are ip, hwid, region, country, asn'],
    ['booltext that is neither', ['app', 'set', '--enabled', 'yes'], 'Allowed choices are true, false'],
    ['a value longer than the server takes', ['licenses', 'note', 'KEY', '--note', 'x'.repeat(70)], 'At most 69 characters'],
    ['"all" as a username where a variant exists', ['users', 'extend', 'all', '--sub', 'default', '--expiry', '1'], 'use --all instead'],
    ['a flag of another variant', ['users', 'extend', 'alice', '--sub', 'default', '--expiry', '1', '--active-only'], '--active-only applies only with --all'],
    ['a flag of the one-record form with a selector', ['licenses', 'delete', '--all', '--user-too', '--yes'], '--user-too applies only without --all, --used, --unused'],
    ['a record named with a selector', ['users', 'delete', 'alice', '--all', '--yes'], 'drop it or drop --all'],
    ['two selectors', ['licenses', 'delete', '--used', '--unused', '--yes'], 'Give only one of --used, --unused'],
    ['a path with no default and no selector', ['logs', 'delete', '--yes'], 'Say which records: --all'],
    ['a missing positional without a terminal', ['users', 'delete', '--yes'], 'Missing <username>'],
    ['both --password and --password-stdin', ['users', 'set-password', 'alice', '--password', 'a', '--password-stdin'], 'not both'],
    ['--md5 and --file together', ['app', 'hash', 'add', '--md5', 'abc', '--file', '/nonexistent'], 'Give --md5 or --file, not both'],
    ['an unreadable --file', ['app', 'hash', 'add', '--file', '/nonexistent/app.exe'], "Can't read --file"],
    ['a change with nothing to change', ['app', 'set'], 'Nothing to change: give at least one of --enabled, --hwid-lock'],
    ['a blacklist entry with neither value', ['blacklists', 'create'], 'Nothing to change: give at least one of --ip, --hwid'],
  ] as const)('%s', async (_what, args, message) => {
    const seller = await fakeSeller({}, { unused: true });
    const result = await seller.run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expect(seller.sent()).toEqual([]);
  });
});

describe('other secrets', () => {
  it('reads any secret flag from its -stdin twin', async () => {
    const seller = await fakeSeller({ updatesettings: ok });
    const result = await seller.run(['app', 'set', '--sellix-secret-stdin', '--enabled', 'true'], { stdin: 'x' });
    expect(result.code, result.stderr).toBe(0);
    expect(withoutAuth(seller.sent()[0]!)).toEqual({ type: 'updatesettings', enabled: 'true', sellixsecret: 'x' });
  });
});
