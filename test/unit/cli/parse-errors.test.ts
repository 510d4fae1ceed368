/**
 * Parse errors read as kactl's own: one capitalised sentence (a lower-case letter after a full
 * stop was commander's `is invalid. give a whole number…`), then a "Did you mean …?" line drawn
 * from the command's own options (hidden global ones too) or commands, then the usage; exit 2.
 * `-o app.bin` names the flag that writes a file. `--value` is `--data` for variables.
 */
import { describe, expect, it } from 'vitest';
import { sentenceCase } from '../../../src/commands/parse-errors.js';
import { didYouMean, editDistance, nearestNames } from '../../../src/util/nearest.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { fakeSeller, ok, withoutAuth } from '../seller/helpers.js';

const env = (): Record<string, string> => ({ KACTL_CONFIG_DIR: tempDir() });

describe('an unknown option', () => {
  it('is one sentence, then the nearest option of the command, then the usage (exit 2)', async () => {
    const { code, stdout, stderr } = await runMain(['vars', 'create', '--nme', 'motd'], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n').slice(0, 3)).toEqual(["error: Unknown option '--nme'.", 'Did you mean --name?', 'Usage: kactl vars create [options]']);
  });

  it('is suggested from every option the command takes, the global ones included, with or without =value', async () => {
    expect((await runMain(['licenses', 'create', '--amout', '3'], { env: env() })).stderr).toContain('\nDid you mean --amount?\n');
    expect((await runMain(['licenses', 'list', '--jsn'], { env: env() })).stderr).toContain('\nDid you mean --json?\n');
    expect((await runMain(['licenses', 'list', '--limt=3'], { env: env() })).stderr).toContain('\nDid you mean --limit?\n');
    // Nothing near: no guess.
    expect((await runMain(['licenses', 'list', '--zzzzzz'], { env: env() })).stderr).not.toContain('Did you mean');
  });

  it('`--value` is `--data` on vars and uservars: the value is sent as data', async () => {
    const seller = await fakeSeller({ addvar: ok });
    const { code, stderr } = await seller.run(['vars', 'create', '--name', 'motd', '--value', 'hello']);
    expect(code, stderr).toBe(0);
    expect(seller.sent('addvar').map(withoutAuth)).toEqual([expect.objectContaining({ type: 'addvar', name: 'motd', data: 'hello' })]);
    // Help shows the one flag.
    const help = await runMain(['vars', 'create', '--help']);
    expect(help.stdout).toContain('--data <data>');
    expect(help.stdout).not.toContain('--value');
  });
});

describe('an unknown command', () => {
  it('names the nearest command once (not its alias too)', async () => {
    const { code, stderr } = await runMain(['licenses', 'lst'], { env: env() });
    expect(code).toBe(2);
    expect(stderr.split('\n').slice(0, 2)).toEqual(["error: Unknown command 'lst'.", 'Did you mean list?']);
  });
});

describe('a value a flag refuses', () => {
  it("capitalises the parser's sentence after commander's full stop", async () => {
    const { code, stderr } = await runMain(['licenses', 'list', '--limit', '0'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toContain("error: Option '--limit <n>' argument '0' is invalid. Give a whole number of rows, 1 or more.\n");
    expect(stderr).not.toMatch(/\. [a-z]/);
  });

  it('-o given a file name says the flag that writes a file (--out), or to redirect where there is none', async () => {
    const download = await runMain(['client', 'file', 'download', 'ID', '-o', 'app.bin'], { env: env() });
    expect(download.code).toBe(2);
    expect(download.stderr).toContain("error: Option '-o, --output <format>' argument 'app.bin' is invalid. Allowed choices are table, json, yaml, ndjson, csv, tsv.\n");
    expect(download.stderr).toContain('to write a file use --out app.bin');
    const list = await runMain(['licenses', 'list', '-o', 'keys.txt'], { env: env() });
    expect(list.stderr).toContain('redirect it: > keys.txt');
    // A format name that is not one is only refused.
    const xml = await runMain(['licenses', 'list', '-o', 'xml'], { env: env() });
    expect(xml.stderr).not.toMatch(/--out |redirect/);
  });

  it('wraps at word boundaries on an 80-column terminal, continuation lines under the sentence', async () => {
    const { stderr } = await runMain(['client', 'file', 'download', 'ID', '-o', 'app.bin'], { env: env(), stderrTTY: true, columns: 80 });
    const lines = stderr.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThan(80);
    expect(lines[0]).toMatch(/^error: Option '-o, --output <format>' argument 'app\.bin' is invalid\./);
    expect(lines[1]).toMatch(/^ {7}\S/);
    expect(lines.slice(0, 2).join(' ').replace(/\s+/g, ' ')).toBe("error: Option '-o, --output <format>' argument 'app.bin' is invalid. Allowed choices are table, json, yaml, ndjson, csv, tsv.");
  });
});

describe('sentences and suggestions', () => {
  it('sentenceCase capitalises the start and after a full stop, leaves e.g. alone, ends with a stop', () => {
    expect(sentenceCase("argument '0' is invalid. give a whole number")).toBe("Argument '0' is invalid. Give a whole number.");
    expect(sentenceCase('give names, e.g. key,status.')).toBe('Give names, e.g. key,status.');
    expect(sentenceCase('Done?')).toBe('Done?');
  });

  it('edit distance counts a swap of neighbours as one; near means a beginning or a few edits', () => {
    expect(editDistance('amout', 'amount')).toBe(1);
    expect(editDistance('lsit', 'list')).toBe(1);
    expect(nearestNames('exp', ['expiry', 'exec', 'level'])).toEqual(['expiry']);
    expect(nearestNames('value', ['data', 'name'])).toEqual([]);
    expect(didYouMean('nme', ['name', 'note'], (n) => `--${n}`)).toBe('Did you mean --name?');
    expect(didYouMean('lst', ['list', 'last'])).toBe('Did you mean one of list, last?');
  });
});
