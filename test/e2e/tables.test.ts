/**
 * Tables for people against a real sandbox: at 80 columns in a real pseudo-terminal every line
 * fits (no wrapped rows), headers are labels, a key's duration reads as one; piped output and
 * the machine formats keep the wire names and raw values; --columns and --limit cut all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { spawnKactlInPty } from '../helpers/pty.js';

let sb: E2ESandbox;
const NOTE = 'a note long enough that the old table wrapped every row of the list at eighty columns';

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['licenses', 'create', '--amount', '3', '--expiry', '30', '--note', NOTE]);
});
afterAll(async () => {
  await sb.stop();
});

describe('licenses list for people', () => {
  it('fits 80 columns in a terminal, with readable headers and durations', async () => {
    const pty = spawnKactlInPty(['licenses', 'list'], { configDir: sb.configDir, cols: 80 });
    expect(await pty.exited).toBe(0);
    const screen = pty.screen().split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
    // The note about the columns left out goes to stderr, which the terminal shows too.
    const note = screen.filter((line) => line.startsWith('Not shown at this width:'));
    expect(note).toHaveLength(1);
    expect(note[0]).toContain('used on');
    const lines = screen.filter((line) => !note.includes(line));
    expect(lines, screen.join('\n')).toHaveLength(4);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^KEY\s+STATUS\s+LEVEL\s+DURATION\s/);
    expect(lines[0]).not.toMatch(/GENBY|GENDATE/);
    for (const row of lines.slice(1)) {
      expect(row).toMatch(/^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}\s+Not Used\s+1\s+30d\s/);
      expect(row).toContain('…');
    }
  });

  it('shows the columns asked for, in that order, and at most --limit rows', async () => {
    const pty = spawnKactlInPty(['licenses', 'list', '--columns', 'note,expires', '--limit', '2'], { configDir: sb.configDir, cols: 200 });
    expect(await pty.exited).toBe(0);
    const lines = pty.screen().split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
    expect(lines[0]).toMatch(/^NOTE\s+DURATION$/);
    expect(lines.slice(1)).toEqual([`${NOTE}  30d`, `${NOTE}  30d`]);
  });
});

describe('licenses list for machines', () => {
  it('piped: tab-separated raw values, no header', async () => {
    const { stdout } = await sb.ok(['licenses', 'list', '--columns', 'expires,note', '--limit', '1']);
    expect(stdout).toBe(`2592000\t${NOTE}\n`);
  });

  it("CSV names the fields as kactl does everywhere (23.10: the wire's genby/gendate/expires were a third spelling)", async () => {
    const { stdout } = await sb.ok(['licenses', 'list', '-o', 'csv', '--limit', '1']);
    expect(stdout.split('\r\n')[0]).toBe('key,status,level,duration,note,created_by,created,used_by,used_on,ban_reason');
    expect(stdout.split('\r\n')[1]).toContain(',2592000,');
    // The wire names still work as aliases, and come out as written.
    expect((await sb.ok(['licenses', 'list', '-o', 'csv', '--limit', '1', '--columns', 'genby,created_by'])).stdout).toBe('genby,created_by\r\nSellerAPI,SellerAPI\r\n');
    // Piped `licenses get` uses the same names (it said createdby, creationdate).
    const key = (await sb.json<{ key: string }[]>(['licenses', 'list']))[0]!.key;
    const fields = (await sb.ok(['licenses', 'get', key])).stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0]);
    expect(fields).toEqual(['status', 'level', 'duration', 'note', 'created_by', 'created', 'used_by', 'used_on']);
  });

  it('JSON is the server\'s records, cut by --limit and --columns', async () => {
    const all = await sb.json<Record<string, unknown>[]>(['licenses', 'list']);
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({ expires: '2592000', genby: expect.any(String) });
    expect(await sb.json(['licenses', 'list', '--limit', '1', '--columns', 'key,expires'])).toEqual([{ key: all[0]!.key, expires: '2592000' }]);
  });

  it('a column the list does not have is a usage error naming the ones it has', async () => {
    const result = await sb.kactl(['licenses', 'list', '--columns', 'key,nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('kactl licenses list has no field "nope"; its fields are key, status, level, duration');
    const badLimit = await sb.kactl(['licenses', 'list', '--limit', '0']);
    expect(badLimit.code).toBe(2);
  });
});

describe('finding things in a list (23.1)', () => {
  it('filters, --json FIELDS and --jq against the real server', async () => {
    await sb.ok(['licenses', 'create', '--amount', '2', '--expiry', '12h', '--note', 'batch-a']);
    const [used] = (await sb.json<{ key: string }[]>(['licenses', 'list', '--note', 'batch-a'])).map((k) => k.key);
    await sb.ok(['users', 'create', '--username', 'finder', '--password', 'pw-123456!', '--sub', 'default', '--expiry', '2d']);
    await sb.ok(['licenses', 'assign', used!, '--username', 'finder']);
    const unused = JSON.parse((await sb.ok(['licenses', 'list', '--status', 'unused', '--note', 'batch-a', '--json', 'key,duration'])).stdout) as { key: string; duration: string }[];
    expect(unused).toHaveLength(1);
    expect(unused[0]!.key).not.toBe(used);
    expect(unused[0]!.duration).toBe('43200');
    expect((await sb.ok(['licenses', 'list', '--used-by', 'finder', '--jq', '.[].key'])).stdout).toBe(`${used}\n`);
    expect((await sb.ok(['users', 'list', '--expiring-within', '3d', '--jq', 'map(.username) | join(",")'])).stdout).toBe('finder\n');
    expect((await sb.ok(['users', 'list', '--expiring-within', '1d', '--json'])).stdout.trim()).toBe('[]');
    const bad = await sb.kactl(['licenses', 'list', '--jq', 'map(']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/^error: --jq: syntax error/);
  });
});

describe('users get for people (23.2)', () => {
  it('shows subscriptions and variables as rows, not JSON with epoch times, at 80 columns', async () => {
    await sb.ok(['users', 'create', '--username', 'rows', '--password', 'pw-123456!', '--sub', 'default', '--expiry', '3d']);
    await sb.ok(['uservars', 'set', 'rows', '--name', 'color', '--data', 'blue']);
    const pty = spawnKactlInPty(['users', 'get', 'rows'], { configDir: sb.configDir, cols: 80 });
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).not.toMatch(/"expiry"|\[\{/);
    expect(screen).toMatch(/subscriptions:\s*\nSUBSCRIPTION\s+TIME LEFT\s+KEY\s+PAUSED\s*\ndefault\s+2d 23h\s/);
    expect(screen).toMatch(/variables:\s*\nNAME\s+VALUE\s*\ncolor\s+blue/);
    for (const line of screen.split('\n')) expect([...line.trimEnd()].length, line).toBeLessThanOrEqual(80);
    // Piped and JSON: unchanged in substance.
    const piped = (await sb.ok(['users', 'get', 'rows'])).stdout;
    expect(piped).toMatch(/^subscriptions\t\[\{"subscription":"default"/m);
    expect((await sb.json<{ uservars: unknown }>(['users', 'get', 'rows'])).uservars).toEqual([{ name: 'color', data: 'blue' }]);
  });
});
