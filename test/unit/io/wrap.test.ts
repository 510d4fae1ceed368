/**
 * Notes, warnings, errors and hints on stderr wrap at word boundaries to the terminal's width
 * (one place: src/io/output.ts through src/io/wrap.ts); without a terminal each stays one line.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { wrapMessage, wrapWords } from '../../../src/io/wrap.js';
import { Output } from '../../../src/io/output.js';
import { createIOStreams } from '../../../src/io/streams.js';

function output(stderrTTY: boolean, columns = 80): { out: Output; text: () => string } {
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  stderr.isTTY = stderrTTY;
  stderr.columns = columns;
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io = createIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr, env: { NO_COLOR: '1' } });
  return { out: new Output(io, { json: false, format: undefined }), text: () => Buffer.concat(chunks).toString('utf8') };
}

const LONG = 'Not shown at this width: created by, created, used by, used on, banned, hwid, ip, last login (--columns picks columns).';

describe('word wrapping', () => {
  it('breaks at spaces only, keeps a word longer than the line whole, and keeps each line\'s indent', () => {
    expect(wrapWords('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapWords('x https://example.test/a/very/long/path y', 10)).toEqual(['x', 'https://example.test/a/very/long/path', 'y']);
    expect(wrapMessage('Done (2):\n  - delete license GEN-1 with a long tail of words', 20)).toEqual(['Done (2):', '  - delete license', '  GEN-1 with a long', '  tail of words']);
  });

  it('leaves room for a prefix on the first line and hangs the rest under it', () => {
    expect(wrapMessage('one two three four', 20, 9)).toEqual(['one two', '         three four']);
  });
});

describe('stderr notes on a terminal of 80 columns', () => {
  it('wrap a note, a warning and a hint within the width, every word kept, in order', () => {
    const { out, text } = output(true);
    out.note(LONG);
    out.warn(LONG);
    out.hint(LONG);
    const lines = text().trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThan(80);
    expect(lines.length).toBeGreaterThan(3);
    const flat = text().replace(/\s+/g, ' ').trim();
    expect(flat).toBe(`${LONG} warning: ${LONG} ${LONG}`);
    // A warning's continuation lines sit under its text, not under "warning:".
    const warning = lines.findIndex((line) => line.startsWith('warning: '));
    expect(lines[warning + 1]).toMatch(/^ {9}\S/);
  });

  it('stay one line each when stderr is not a terminal (a log)', () => {
    const { out, text } = output(false);
    out.note(LONG);
    out.warn(LONG);
    expect(text()).toBe(`${LONG}\nwarning: ${LONG}\n`);
  });
});

describe('COLUMNS', () => {
  const streams = (env: Record<string, string>, tty: boolean) => {
    const stream = (): PassThrough & { isTTY?: boolean; columns?: number } => Object.assign(new PassThrough(), { isTTY: tty, columns: 200 });
    return createIOStreams({ stdin: new PassThrough(), stdout: stream(), stderr: stream(), env });
  };

  it("names the terminal's width when set to a number, for tables, notes and help alike", () => {
    expect(streams({ COLUMNS: '80' }, true)).toMatchObject({ columns: 80, stderrColumns: 80 });
    expect(streams({}, true)).toMatchObject({ columns: 200, stderrColumns: 200 });
    for (const bad of ['', 'wide', '0', '-5', '80.5']) expect(streams({ COLUMNS: bad }, true), bad).toMatchObject({ columns: 200, stderrColumns: 200 });
  });

  it('changes nothing written to a pipe or a file', () => {
    expect(streams({ COLUMNS: '80' }, false)).toMatchObject({ columns: 80, stderrColumns: undefined });
    expect(streams({ COLUMNS: '40' }, false).stderrColumns).toBeUndefined();
  });
});
