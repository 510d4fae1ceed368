/**
 * Bulk license creation against a loopback server that makes keys like the real one (`key` for
 * one, `keys` with HTTP 302 for several) and can be told to fail one call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkSizes, keysFrom } from '../../../src/commands/seller/licenses-create.js';
import { progressLine } from '../../../src/io/progress.js';
import { fakeSeller, json } from './helpers.js';
import type { Reply } from '../api/helpers/servers.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A server whose `add` makes numbered keys, listed by `fetchallkeys`; `fail(n)` answers the n-th
 * add call (1-based) instead, having made its keys first when `made` is set (an answer lost).
 */
async function keyMaker(fail?: { call: number; reply: Reply; made?: boolean | 'by someone else' }, extra: Record<string, (req: unknown, params: Record<string, string>) => Reply> = {}) {
  let made = 0;
  let calls = 0;
  const rows: Record<string, unknown>[] = [];
  const make = (params: Record<string, string>, amount: number): string[] =>
    Array.from({ length: amount }, () => {
      const key = `KEY-${String(++made).padStart(5, '0')}`;
      rows.push({ key, level: params.level ?? '1', note: params.note ?? null, status: 'Not Used', genby: 'SellerAPI' });
      return key;
    });
  return fakeSeller({
    fetchallkeys: () => (rows.length === 0 ? json({ success: false, message: 'No keys found' }, 406) : json({ success: true, message: 'ok', keys: rows })),
    add: (_req, params) => {
      calls++;
      const amount = Number(params.amount ?? '1');
      if (fail && calls === fail.call) {
        if (fail.made === 'by someone else') make({ ...params, note: 'not this run' }, amount);
        else if (fail.made) make(params, amount);
        return fail.reply;
      }
      if (amount > 100) return json({ success: false, message: 'You can only generate 100 licenses at a time' });
      const keys = make(params, amount);
      return amount === 1 ? json({ success: true, message: 'License Successfully Generated', key: keys[0] }) : json({ success: true, message: 'Licenses successfully generated', keys }, 302);
    },
    ...extra,
  });
}

const numbered = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `KEY-${String(from + i).padStart(5, '0')}`);

describe('licenses create', () => {
  it('splits any amount into calls of at most 100 and prints every key, one a line', async () => {
    // A level other than 1 is checked against the subscriptions (a warning when none has it).
    const seller = await keyMaker(undefined, { fetchallsubs: () => json({ success: true, message: 'ok', subs: [{ name: 'pro', level: '2' }] }) });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '250', '--expiry', '30', '--level', '2', '--mask', 'PRO-****']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${numbered(1, 250).join('\n')}\n`);
    expect(stderr).toContain('Created 250 licenses.');
    const adds = seller.sent('add');
    expect(adds.map((p) => p.amount)).toEqual(['100', '100', '50']);
    for (const p of adds) expect(p).toMatchObject({ expiry: '30', level: '2', mask: 'PRO-****' });
  });

  it('reads the single-key answer of amount 1, and defaults to one key', async () => {
    const seller = await keyMaker();
    const { code, stdout } = await seller.run(['licenses', 'create', '--expiry', '1']);
    expect(code).toBe(0);
    expect(stdout).toBe('KEY-00001\n');
    expect(seller.sent('add')[0]).toMatchObject({ amount: '1' });
  });

  it('--json prints one JSON array at the end', async () => {
    const seller = await keyMaker();
    const { stdout } = await seller.run(['licenses', 'create', '--amount', '150', '--expiry', '1', '--json']);
    expect(JSON.parse(stdout)).toEqual(numbered(1, 150));
  });

  it('--out writes the keys to a new file, and refuses an existing one without --force', async () => {
    const seller = await keyMaker();
    const file = path.join(tempDir(), 'keys.txt');
    const first = await seller.run(['licenses', 'create', '--amount', '3', '--expiry', '1', '--out', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe('KEY-00001\nKEY-00002\nKEY-00003\n');
    const again = await seller.run(['licenses', 'create', '--amount', '3', '--expiry', '1', '--out', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists; add --force');
    expect(seller.sent('add')).toHaveLength(1);
    const forced = await seller.run(['licenses', 'create', '--amount', '2', '--expiry', '1', '--out', file, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(['KEY-00004', 'KEY-00005']);
  });

  it('a failure midway prints the keys made, says how many are missing, and exits 1', async () => {
    const seller = await keyMaker({ call: 3, reply: { status: 500, body: 'boom' } });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '450', '--expiry', '1']);
    expect(code).toBe(1);
    expect(stdout).toBe(`${numbered(1, 200).join('\n')}\n`);
    expect(stderr).toContain('Created 200 of 450 licenses; 250 are missing.');
    expect(stderr).toContain('Run again with --amount 250');
    expect(seller.sent('add')).toHaveLength(3);
  });

  it('a refusal midway (success:false) is reported the same way, keys in the --json array', async () => {
    const seller = await keyMaker({ call: 2, reply: json({ success: false, message: 'You can only generate 5000 keys per 24 hours with SellerAPI.' }, 429) });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '200', '--expiry', '1', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual(numbered(1, 100));
    expect(stderr).toContain('Created 100 of 200 licenses; 100 are missing.');
    expect(stderr).toContain('5000 keys per 24 hours');
  });

  it('a call whose answer is lost after the server made its keys: they are read back, printed and counted', async () => {
    const seller = await keyMaker({ call: 2, reply: { status: 502, body: '<html>Bad Gateway</html>' }, made: true });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '300', '--expiry', '1', '--note', 'batch-7']);
    expect(code).toBe(1);
    expect(stdout).toBe(`${numbered(1, 200).join('\n')}\n`);
    expect(stderr).toContain('the 100 keys it made were read back from the server');
    expect(stderr).toContain('Created 200 of 300 licenses; 100 are missing.');
    expect(stderr).toContain('Run again with --amount 100 to make the rest.');
    // Read before the first call, and again after the lost answer.
    expect(seller.sent('fetchallkeys')).toHaveLength(2);
    expect(seller.sent('add')).toHaveLength(2);
  });

  it('when the lost answer was the last call, every key was made: exit 0, with a warning', async () => {
    const seller = await keyMaker({ call: 2, reply: { status: 504, body: 'Gateway Timeout' }, made: true });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '150', '--expiry', '1']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${numbered(1, 150).join('\n')}\n`);
    expect(stderr).toContain('warning: The answer to one call was lost; the 50 keys it made were read back from the server.');
    expect(stderr).toContain('Created 150 licenses.');
  });

  it('keys with another note made meanwhile are not counted as the lost call\'s', async () => {
    // The lost call made nothing; somebody else made keys with another note at the same time.
    const seller = await keyMaker({ call: 2, reply: { status: 502, body: 'Bad Gateway' }, made: 'by someone else' });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '200', '--expiry', '1', '--note', 'mine']);
    expect(code).toBe(1);
    expect(stdout).toBe(`${numbered(1, 100).join('\n')}\n`);
    expect(stderr).toContain('Created 100 of 200 licenses; 100 are missing.');
    expect(seller.sent('fetchallkeys')).toHaveLength(2);
  });

  it('when the key list cannot be read, a lost answer is said to be unknown, with a check before running again', async () => {
    const seller = await keyMaker({ call: 2, reply: { status: 502, body: 'Bad Gateway' }, made: true }, { fetchallkeys: () => ({ status: 500, body: 'down' }) });
    const { code, stderr } = await seller.run(['licenses', 'create', '--amount', '300', '--expiry', '1']);
    expect(code).toBe(1);
    expect(stderr).toContain('The call that failed may have made up to 100 more keys that kactl could not read back: check `kactl licenses list` before making the other 200.');
    expect(stderr).not.toContain('Run again with --amount');
    expect(seller.sent('fetchallkeys')).toHaveLength(1);
  });

  it('a failure of the first call is that failure, with its own exit code', async () => {
    const seller = await keyMaker({ call: 1, reply: json({ success: false, message: 'Level too long' }) });
    const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '300', '--expiry', '1']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('Level too long');
    expect(stderr).not.toContain('missing');
    // Nothing was made: there is no "rest" to make, only the request the error says what to change in.
    expect(stderr).not.toContain('Run again with --amount');
    expect(seller.sent('add')).toHaveLength(1);
  });

  it('refuses an expiry of 0 days or less before any request, exit 2', async () => {
    const seller = await fakeSeller({}, { unused: true });
    for (const expiry of ['-1', '0', '-0.5']) {
      const { code, stdout, stderr } = await seller.run(['licenses', 'create', '--amount', '3', '--expiry', expiry]);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`error: --expiry is the keys' duration in days and must be above 0 (30, or 0.5 for 12 hours), not ${expiry}.`);
      expect(stderr).not.toContain('Run again');
    }
    expect(seller.sent()).toEqual([]);
  });

  it('refuses a fixed mask with more than one key before any call', async () => {
    const seller = await keyMaker();
    const { code, stderr } = await seller.run(['licenses', 'create', '--amount', '2', '--expiry', '1', '--mask', 'MY-CUSTOM-KEY']);
    expect(code).toBe(2);
    expect(stderr).toContain('has no * so it is one fixed key');
    expect(seller.sent()).toEqual([]);
    expect((await seller.run(['licenses', 'create', '--expiry', '1', '--mask', 'MY-CUSTOM-KEY'])).code).toBe(0);
  });

  it('refuses an amount below 1', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { code, stderr } = await seller.run(['licenses', 'create', '--amount', '0', '--expiry', '1']);
    expect(code).toBe(2);
    expect(stderr).toContain('--amount must be a whole number, 1 or more');
    expect(seller.sent()).toEqual([]);
  });

  it('--dry-run prints each call it would make and sends nothing', async () => {
    const seller = await fakeSeller({}, { unused: true });
    const { code, stdout } = await seller.run(['licenses', 'create', '--amount', '201', '--expiry', '1', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').map((line) => new URL(line.split(' ')[1]!).searchParams.get('amount'))).toEqual(['100', '100', '1']);
    expect(seller.sent()).toEqual([]);
  });

  it('draws a progress bar on a terminal stderr only', async () => {
    const seller = await keyMaker();
    const onTerminal = await seller.run(['licenses', 'create', '--amount', '150', '--expiry', '1'], { stderrTTY: true });
    expect(onTerminal.stderr).toContain('Creating licenses [');
    expect(onTerminal.stderr).toContain('150/150');
    expect(onTerminal.stdout.split('\n').filter(Boolean)).toHaveLength(150);
    const piped = await seller.run(['licenses', 'create', '--amount', '150', '--expiry', '1']);
    expect(piped.stderr).not.toContain('Creating licenses');
  });
});

describe('pieces', () => {
  it('chunkSizes', () => {
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(100)).toEqual([100]);
    expect(chunkSizes(1000)).toHaveLength(10);
    expect(chunkSizes(101)).toEqual([100, 1]);
  });

  it('keysFrom reads both answer shapes and refuses one without keys', () => {
    expect(keysFrom({ success: true, key: 'A' })).toEqual(['A']);
    expect(keysFrom({ success: true, keys: ['A', 'B'] })).toEqual(['A', 'B']);
    expect(() => keysFrom({ success: true, message: 'ok' })).toThrow('holds no keys');
  });

  it('progressLine fills in proportion', () => {
    // 30 columns: 'Go [' + 18 + '] ' + '10/10'.
    expect(progressLine('Go', 0, 10, 30)).toBe(`Go [${'░'.repeat(18)}]  0/10`);
    expect(progressLine('Go', 5, 10, 30)).toBe(`Go [${'█'.repeat(9)}${'░'.repeat(9)}]  5/10`);
    expect(progressLine('Go', 10, 10, 30)).toBe(`Go [${'█'.repeat(18)}] 10/10`);
    // Never wider than a 40-cell bar: 'Go [' + 40 + ']' + '  3/10'.
    expect(progressLine('Go', 3, 10, 200)).toHaveLength(4 + 40 + 1 + 6);
  });
});
