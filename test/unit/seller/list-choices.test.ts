/**
 * What a list or record command is asked to show (23.1, 23.10): filters declared in the catalog
 * and applied to the rows the server sent, kactl's field names with the wire names as aliases,
 * `--json FIELDS` and `--jq EXPR` (jq itself, built in).
 */
import { describe, expect, it } from 'vitest';
import { fakeSeller, json } from './helpers.js';
import type { Answers } from './helpers.js';

const NOW = Math.floor(Date.now() / 1000);
const KEYS = [
  { key: 'A-1', note: 'batch-a', expires: '86400', status: 'Not Used', level: '1', genby: 'SellerAPI', gendate: String(NOW - 10 * 86_400), usedon: null, usedby: null, banned: null },
  { key: 'B-2', note: 'batch-a', expires: '3600', status: 'Used', level: '2', genby: 'shop1', gendate: String(NOW - 3600), usedon: String(NOW - 60), usedby: 'alice', banned: null },
  { key: 'C-3', note: 'batch-b', expires: '3600', status: 'Not Used', level: '1', genby: 'SellerAPI', gendate: String(NOW - 60), usedon: null, usedby: null, banned: null },
  { key: 'D-4', note: 'batch-a', expires: '3600', status: 'Banned', level: '1', genby: 'SellerAPI', gendate: String(NOW - 60), usedon: String(NOW - 30), usedby: 'bob', banned: 'Chargeback' },
];

/** Runs `args` against a fake server that answers the key list and `info`; `sent` is 0 when a refusal came first. */
async function keys(args: readonly string[], options: { refused?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string; sent: number }> {
  const answer: Answers = args[1] === 'get' ? { info: () => json({ success: true, message: 'ok', ...INFO }) } : { fetchallkeys: () => json({ success: true, message: 'ok', keys: KEYS }) };
  const seller = await fakeSeller(options.refused ? {} : answer, options.refused ? { unused: true } : {});
  const result = await seller.run(args);
  return { ...result, sent: seller.sent().length };
}

const INFO = { duration: '86400', note: 'batch-a', status: 'Not Used', level: '1', createdby: 'SellerAPI', creationdate: '1700000000', usedby: null, usedon: null };

describe('list filters (the seller API has none: kactl keeps the matching rows)', () => {
  it.each([
    ['--status unused and --note', ['--status', 'unused', '--note', 'batch-a'], ['A-1']],
    ['--status used', ['--status', 'used'], ['B-2']],
    ['--status banned', ['--status', 'banned'], ['D-4']],
    ['--level', ['--level', '2'], ['B-2']],
    ['--used-by', ['--used-by', 'alice'], ['B-2']],
    ['--created-by', ['--created-by', 'shop1'], ['B-2']],
    ['--created-before a duration ago', ['--created-before', '1d'], ['A-1']],
    ['--created-after a duration ago', ['--created-after', '2h'], ['B-2', 'C-3', 'D-4']],
    ['--created-after a date', ['--created-after', '2000-01-01'], ['A-1', 'B-2', 'C-3', 'D-4']],
    ['--used-after a UTC time', ['--used-after', new Date((NOW - 45) * 1000).toISOString()], ['D-4']],
    ['--used-before', ['--used-before', '40s'], ['B-2']],
    ['filters before --limit', ['--note', 'batch-a', '--limit', '2'], ['A-1', 'B-2']],
  ] as const)('%s', async (_what, flags, expected) => {
    const { code, stdout, stderr } = await keys(['licenses', 'list', ...flags, '--json']);
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as { key: string }[]).map((k) => k.key)).toEqual(expected);
  });

  it('keeps the server rows whole with --json alone', async () => {
    const { stdout } = await keys(['licenses', 'list', '--status', 'banned', '--json']);
    expect(JSON.parse(stdout)).toEqual([KEYS[3]]);
  });

  it('refuses a value that is not a moment or not a state, before anything is sent', async () => {
    const when = await keys(['licenses', 'list', '--created-after', 'yesterday'], { refused: true });
    expect(when.code).toBe(2);
    expect(when.stderr).toContain('Give a date (2025-03-01), a UTC time (2025-03-01T12:00:00Z) or how long ago (7d, 12h).');
    const state = await keys(['licenses', 'list', '--status', 'new'], { refused: true });
    expect(state.code).toBe(2);
    expect(state.stderr).toMatch(/unused, used, banned, paused/);
    expect(when.sent + state.sent).toBe(0);
  });

  it('users: banned, HWID, and subscriptions read per user', async () => {
    const users = [
      { username: 'alice', hwid: 'H1', banned: null },
      { username: 'bob', hwid: '', banned: 'cheating' },
      { username: 'carol', hwid: null, banned: null },
    ];
    const subs: Record<string, unknown> = {
      alice: [{ subscription: 'default', expiry: String(NOW + 2 * 86_400), paused: 0 }],
      bob: [{ subscription: 'premium', expiry: String(NOW + 30 * 86_400), paused: 0 }],
      carol: [{ subscription: 'default', expiry: String(NOW - 60), paused: 0 }],
    };
    const seller = await fakeSeller({
      fetchallusers: () => json({ success: true, message: 'ok', users }),
      usersub: (_req, params) => json({ success: true, message: 'ok', subs: subs[params.user!] }),
    });
    const names = async (flags: string[]): Promise<string[]> => {
      const result = await seller.run(['users', 'list', ...flags, '--json']);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { username: string }[]).map((u) => u.username);
    };
    expect(await names(['--banned'])).toEqual(['bob']);
    expect(await names(['--not-banned', '--no-hwid'])).toEqual(['carol']);
    expect(await names(['--hwid-set'])).toEqual(['alice']);
    // An ended subscription is not held.
    expect(await names(['--subscription', 'default'])).toEqual(['alice']);
    expect(await names(['--expiring-within', '7d'])).toEqual(['alice']);
    expect(await names(['--expiring-within', '60d', '--subscription', 'premium'])).toEqual(['bob']);
    const stray = await seller.run(['users', 'list', '--usernames', '--banned']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--banned applies only without --usernames.');
  });

  it('sessions by user and validation, logs by user and time', async () => {
    const seller = await fakeSeller({
      fetchallsessions: () => json({ success: true, message: 'ok', sessions: [{ id: 's1', credential: 'alice', validated: '1', expiry: String(NOW + 60) }, { id: 's2', credential: '', validated: '0', expiry: String(NOW + 60) }] }),
      fetchalllogs: () => json({ success: true, message: 'ok', logs: [{ logdate: String(NOW - 7200), credential: 'alice', pcuser: 'pc', logdata: 'old' }, { logdate: String(NOW - 60), credential: 'bob', pcuser: 'pc', logdata: 'new' }] }),
    });
    const field = async (args: string[], name: string): Promise<unknown[]> => (JSON.parse((await seller.run([...args, '--json'])).stdout) as Record<string, unknown>[]).map((row) => row[name]);
    expect(await field(['sessions', 'list', '--validated'], 'id')).toEqual(['s1']);
    expect(await field(['sessions', 'list', '--not-validated'], 'id')).toEqual(['s2']);
    expect(await field(['sessions', 'list', '--user', 'alice'], 'id')).toEqual(['s1']);
    expect(await field(['logs', 'list', '--since', '1h'], 'logdata')).toEqual(['new']);
    expect(await field(['logs', 'list', '--user', 'alice'], 'logdata')).toEqual(['old']);
  });
});

describe("kactl's field names, the wire names as aliases (23.10)", () => {
  it('piped licenses get names the fields as the list and the table do', async () => {
    const { stdout } = await keys(['licenses', 'get', 'A-1']);
    expect(stdout.split('\n').map((line) => line.split('\t')[0]).filter(Boolean)).toEqual(['status', 'level', 'duration', 'note', 'created_by', 'created', 'used_by', 'used_on']);
  });

  it('--columns takes kactl names, wire names and labels alike', async () => {
    const { stdout } = await keys(['licenses', 'list', '--columns', 'key,created_by,genby,used on', '--limit', '1', '-o', 'csv']);
    expect(stdout.split('\r\n')[0]).toBe('key,created_by,genby,used on');
    expect(stdout.split('\r\n')[1]).toBe('A-1,SellerAPI,SellerAPI,');
  });

  it('an unknown name says which exist', async () => {
    const { code, stderr } = await keys(['licenses', 'list', '--json', 'key,owner']);
    expect(code).toBe(2);
    expect(stderr).toContain('kactl licenses list has no field "owner"; its fields are key, status, level, duration, note, created_by, created, used_by, used_on, ban_reason.');
  });
});

describe('--json FIELDS and --jq', () => {
  it('--json FIELDS: only those fields, under the names given, with the server values', async () => {
    const { stdout } = await keys(['licenses', 'list', '--status', 'used', '--json', 'key,created_by,gendate,duration']);
    expect(JSON.parse(stdout)).toEqual([{ key: 'B-2', created_by: 'shop1', gendate: KEYS[1]!.gendate, duration: '3600' }]);
  });

  it('--json FIELDS on a record; --json before the record\'s argument still prints the whole JSON', async () => {
    expect(JSON.parse((await keys(['licenses', 'get', 'A-1', '--json', 'status,created_by'])).stdout)).toEqual({ status: 'Not Used', created_by: 'SellerAPI' });
    expect(JSON.parse((await keys(['licenses', 'get', '--json', 'A-1'])).stdout)).toEqual({ success: true, message: 'ok', ...INFO });
  });

  it('--jq runs a jq expression on the JSON, printing as jq -r does', async () => {
    expect((await keys(['licenses', 'list', '--jq', '.[] | select(.status == "Not Used") | .key'])).stdout).toBe('A-1\nC-3\n');
    expect((await keys(['licenses', 'list', '--json', 'key,level', '--jq', 'map(.level | tonumber) | add'])).stdout).toBe('5\n');
    expect((await keys(['licenses', 'list', '--note', 'batch-b', '--jq', 'group_by(.level) | map({level: .[0].level, n: length})'])).stdout).toBe('[\n  {\n    "level": "1",\n    "n": 1\n  }\n]\n');
  });

  it('a mistake in the expression: exit 2, one sentence, nothing sent', async () => {
    const bad = await keys(['licenses', 'list', '--jq', '.[] |'], { refused: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --jq: syntax error, unexpected end of file \(line 1, column 5\)\.\n/);
    expect(bad.sent).toBe(0);
    const wrong = await keys(['licenses', 'list', '--jq', '.key']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^error: --jq: Cannot index array with string \("key"\)\.\n/);
    const format = await keys(['licenses', 'list', '--jq', '.', '-o', 'csv'], { refused: true });
    expect(format.code).toBe(2);
  });
});

describe('filters as the catalog declares them', () => {
  it('belong to list operations, read columns they have, and take no flag another option of the command has', async () => {
    const { SELLER_CATALOG, findColumn, findSellerOp, commandsForGroup } = await import('../../../src/api/seller-catalog/index.js');
    for (const op of SELLER_CATALOG.filter((o) => o.filters !== undefined)) {
      expect(op.response.kind, op.type).toBe('list');
      const columns = op.response.kind === 'list' ? op.response.columns : [];
      const path = commandsForGroup(op.group).find((c) => c.ops.includes(op))!;
      const taken = new Set(['columns', 'limit', 'json', 'jq', ...path.ops.flatMap((o) => [...o.params.map((p) => p.flag), ...(o.selector ? [o.selector] : [])])]);
      for (const filter of op.filters!) {
        expect(taken.has(filter.flag), `${op.type} --${filter.flag}`).toBe(false);
        taken.add(filter.flag);
        if ('field' in filter.test) expect(findColumn(columns, filter.test.field), `${op.type} --${filter.flag}`).toBeDefined();
        else expect(findSellerOp(filter.test.from)?.response.kind).toBe('list');
        if (filter.completeFrom !== undefined) expect(findSellerOp(filter.completeFrom)?.response.kind).toBe('list');
      }
    }
  });
});
