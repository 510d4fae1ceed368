/**
 * Tables for people against a real sandbox: at 80 columns in a real pseudo-terminal every line
 * fits (no wrapped rows, and the notes on stderr wrap at word boundaries), headers are labels, a
 * key's duration reads as one, URLs stay whole and the least useful columns leave first; piped
 * output and the machine formats keep the wire names (a header row) and raw values, with yes/no
 * for yes/no columns; --columns and --limit cut all of them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { killRegisteredSandboxes } from '../helpers/leftover-sandboxes.js';
import { spawnKactlInPty } from '../helpers/pty.js';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

let sb: E2ESandbox;
/** Data folders of the detached sandboxes started here: killed outright if a test left one running. */
const dataDirs: string[] = [];
afterAll(() => killRegisteredSandboxes(dataDirs));
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
    // Every line of the terminal fits, the note on stderr included (it wraps at word boundaries).
    for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(80);
    // The note about the columns left out goes to stderr, which the terminal shows too.
    const start = screen.findIndex((line) => line.startsWith('Not shown at this width:'));
    expect(start).toBeGreaterThanOrEqual(0);
    const end = screen.findIndex((line, i) => i >= start && line.endsWith('(--columns picks columns).'));
    expect(end).toBeGreaterThan(start);
    const note = screen.slice(start, end + 1);
    expect(note.join(' ')).toMatch(/^Not shown at this width: [a-z ,]*used on[a-z ,]* \(--columns picks columns\)\.$/);
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
  it('piped: tab-separated raw values under a header row of wire names; --no-header drops it', async () => {
    const { stdout } = await sb.ok(['licenses', 'list', '--columns', 'expires,note', '--limit', '1']);
    expect(stdout).toBe(`expires\tnote\n2592000\t${NOTE}\n`);
    const tsv = await sb.ok(['licenses', 'list', '--columns', 'expires,note', '--limit', '1', '-o', 'tsv']);
    expect(tsv.stdout).toBe(stdout);
    const bare = await sb.ok(['licenses', 'list', '--columns', 'expires,note', '--limit', '1', '--no-header']);
    expect(bare.stdout).toBe(`2592000\t${NOTE}\n`);
  });

  it('piped profile list and users subscriptions: a header row, and yes/no rather than bare booleans', async () => {
    const profiles = (await sb.ok(['profile', 'list'])).stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(profiles[0]).toEqual(['active', 'name', 'baseUrl', 'appName', 'ownerid', 'sellerKey', 'session']);
    expect(profiles[1]!.slice(0, 3)).toEqual(['yes', 'sandbox', sb.info.baseUrl]);
    expect(profiles[1]![6]).toMatch(/^(yes|no)$/);
    // JSON keeps its booleans.
    expect((await sb.json<{ active: unknown }[]>(['profile', 'list']))[0]!.active).toBe(true);

    await sb.ok(['users', 'create', '--username', 'tabby', '--password', 'pw-tabby', '--sub', 'default', '--expiry', '3']);
    const subs = (await sb.ok(['users', 'subscriptions', 'tabby'])).stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(subs[0]).toEqual(['subscription', 'expiry', 'key', 'paused']);
    expect(subs[1]![0]).toBe('default');
    expect(subs[1]![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(subs[1]![3]).toBe('no');
    const csv = (await sb.ok(['users', 'subscriptions', 'tabby', '-o', 'csv', '--no-header'])).stdout;
    expect(csv).toMatch(/^default,[^,]+,[^,]*,no\r\n$/);
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
    // finder's 2-day subscription ends within 3 days, not within 1.
    expect((await sb.ok(['users', 'list', '--expiring-within', '3d', '--jq', 'map(.username) | index("finder") != null'])).stdout).toBe('true\n');
    expect((await sb.ok(['users', 'list', '--expiring-within', '1d', '--jq', 'map(.username) | index("finder")'])).stdout).toBe('null\n');
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
    // Piped: the same lists as rows under their names (as `users subscriptions` prints them), no JSON cell; JSON: the server's.
    const piped = (await sb.ok(['users', 'get', 'rows'])).stdout;
    expect(piped).not.toMatch(/\[\{/);
    expect(piped).toMatch(/\n\nsubscriptions:\nsubscription\texpiry\tkey\tpaused\ndefault\t\d{4}-/);
    expect(piped).toMatch(/\n\nvariables:\nname\tdata\ncolor\tblue\n$/);
    expect((await sb.json<{ uservars: unknown }>(['users', 'get', 'rows'])).uservars).toEqual([{ name: 'color', data: 'blue' }]);
  });
});

describe('sandbox status and profile list at 80 columns', () => {
  /** The terminal's lines at 80 columns, each checked to fit. */
  async function at80(args: readonly string[], configDir: string): Promise<string[]> {
    const pty = spawnKactlInPty(args, { configDir, cols: 80 });
    expect(await pty.exited).toBe(0);
    const screen = pty.screen().split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
    for (const line of screen) expect([...line].length, `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
    expect(screen.join('\n')).not.toMatch(/http:\/\/127\.[0-9.:]*…/);
    return screen;
  }

  it('profile list keeps the base URLs whole; the session and the masked key leave first', async () => {
    await sb.ok(['profile', 'add', 'elsewhere', '--base-url', 'http://127.0.0.1:38881', '--app-name', 'another-application', '--ownerid', 'AbCdEf1234', '--seller-key', '0123456789abcdef0123456789abcdef', '--force']);
    const screen = await at80(['profile', 'list'], sb.configDir);
    expect(screen.find((line) => line.includes(' sandbox '))).toContain(sb.info.baseUrl);
    expect(screen.find((line) => line.includes(' elsewhere '))).toContain('http://127.0.0.1:38881');
    expect(screen.find((line) => line.startsWith('Not shown at this width:'))).toMatch(/session/);
    expect(screen.find((line) => /^\s*NAME\s/.test(line))).toMatch(/^\s*NAME\s+BASE URL\s+APP\s+OWNERID\b/);
  });

  it('sandbox status keeps the URL whole; the log and store paths leave first, the start time reads as a date', async () => {
    // A detached sandbox with a store file and a log: paths long enough to crowd the table.
    const configDir = tempDir('kactl-tables-status-');
    dataDirs.push(path.join(configDir, 'data'));
    const started = await runKactl(['sandbox', 'start', '--detach', '--port', '0'], { configDir, timeoutMs: 60_000 });
    expect(started.code, started.stderr).toBe(0);
    const [row] = JSON.parse((await runKactl(['sandbox', 'status', '--json'], { configDir })).stdout) as { baseUrl: string; log: string }[];
    expect(row!.log.length).toBeGreaterThan(40);
    const screen = await at80(['sandbox', 'status'], configDir);
    expect(screen.find((line) => line.startsWith('Not shown at this width:'))).toBe('Not shown at this width: store, log (-o json shows every field).');
    expect(screen.find((line) => line.startsWith('PROFILE'))).toMatch(/^PROFILE\s+PID\s+URL\s+STATE\s+STARTED$/);
    expect(screen.find((line) => line.startsWith('sandbox '))).toMatch(new RegExp(`^sandbox\\s+\\d+\\s+${row!.baseUrl.replace(/\./g, '\\.')}\\s+ready\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));
    expect((await runKactl(['sandbox', 'stop', '--all'], { configDir, timeoutMs: 30_000 })).code).toBe(0);
  }, 90_000);
});
