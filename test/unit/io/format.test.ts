import { describe, expect, it } from 'vitest';
import { headerFor, humanCell, humanDuration, machineCell, stripControl, toCsv, toNdjson, toTsv } from '../../../src/io/format.js';

describe('output formatting', () => {
  it('shows durations as the largest unit and the next one', () => {
    expect(humanDuration(93_784)).toBe('1d 2h');
    expect(humanDuration(86_400)).toBe('1d');
    expect(humanDuration(3_000)).toBe('50m');
    expect(humanDuration(59)).toBe('59s');
    expect(humanDuration(0)).toBe('expired');
    expect(humanDuration(-5)).toBe('expired');
  });

  it('shows dates for people and ISO 8601 UTC for machines', () => {
    expect(machineCell('1795387449', 'date')).toBe('2026-11-22T22:44:09Z');
    expect(humanCell('1795387449', 'date')).toMatch(/^2026-11-2[23] \d\d:\d\d$/);
    expect(humanCell(null, 'date')).toBe('-');
    expect(machineCell(null)).toBe('');
    expect(machineCell('not a date', 'date')).toBe('not a date');
  });

  it('strips control characters that could drive a terminal, keeping tab and newline', () => {
    expect(stripControl('a\u001b[2Jb\u0007c\td\ne\u009b')).toBe('a[2Jbc\td\ne');
    expect(humanCell('line1\nline2\tx')).toBe('line1 line2 x');
  });

  it('writes RFC 4180 CSV with a header and quotes only where needed', () => {
    const csv = toCsv([{ key: 'A,B', note: 'say "hi"', n: 3 }, { key: 'C', note: null, n: 0 }], [{ key: 'key' }, { key: 'note' }, { key: 'n' }]);
    expect(csv).toBe('key,note,n\r\n"A,B","say ""hi""",3\r\nC,,0\r\n');
  });

  it('writes TSV with a header row of the keys (unless told not to) and no tabs or newlines inside cells', () => {
    expect(toTsv([{ a: 'x\ty', b: 'line\nbreak' }], [{ key: 'a' }, { key: 'b' }])).toBe('a\tb\nx y\tline break\n');
    expect(toTsv([{ a: 'x\ty', b: 'line\nbreak' }], [{ key: 'a' }, { key: 'b' }], { header: false })).toBe('x y\tline break\n');
    expect(toTsv([], [{ key: 'a' }])).toBe('a\n');
    expect(toTsv([], [{ key: 'a' }], { header: false })).toBe('');
    expect(toCsv([{ a: 1 }], [{ key: 'a' }], { header: false })).toBe('1\r\n');
    expect(toCsv([], [{ key: 'a' }], { header: false })).toBe('');
  });

  it('writes one JSON object a line for NDJSON', () => {
    expect(toNdjson([{ a: 1 }, { b: 'x\ny' }])).toBe('{"a":1}\n{"b":"x\\ny"}\n');
  });

  it('turns field names into headers', () => {
    expect(headerFor({ key: 'numOnlineUsers' })).toBe('NUM ONLINE USERS');
    expect(headerFor({ key: 'usedby' })).toBe('USEDBY');
    expect(headerFor({ key: 'x', header: 'Custom' })).toBe('Custom');
  });
});
