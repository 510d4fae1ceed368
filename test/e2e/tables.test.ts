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

  it('CSV keeps the wire names', async () => {
    const { stdout } = await sb.ok(['licenses', 'list', '-o', 'csv', '--limit', '1']);
    expect(stdout.split('\r\n')[0]).toBe('key,status,level,expires,note,genby,gendate,usedby,usedon,banned');
    expect(stdout.split('\r\n')[1]).toContain(',2592000,');
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
    expect(result.stderr).toContain('This list has no column "nope"; it has key, status, level, expires');
    const badLimit = await sb.kactl(['licenses', 'list', '--limit', '0']);
    expect(badLimit.code).toBe(2);
  });
});
