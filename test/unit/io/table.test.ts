import { describe, expect, it } from 'vitest';
import { fitWidths, renderTable, truncate } from '../../../src/io/table.js';
import { humanCell, machineCell } from '../../../src/io/format.js';

describe('table fitting', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitWidths([5, 10, 3], [false, false, false], 80)).toEqual([5, 10, 3]);
  });

  it('takes characters from the widest shortenable column first', () => {
    // 10 + 30 + 20 + 2 gaps of 2 = 64; 40 wide needs 24 fewer characters.
    const widths = fitWidths([10, 30, 20], [true, false, false], 40);
    expect(widths[0]).toBe(10);
    expect(widths.reduce((a, b) => a + b, 0) + 4).toBe(40);
    expect(widths[1]).toBe(widths[2]);
  });

  it('shortens columns kept whole only when nothing else is left', () => {
    const widths = fitWidths([20, 6], [true, false], 20);
    expect(widths).toEqual([14, 4]);
  });

  it('never lets a line pass the width, headers included, and marks cut cells with an ellipsis', () => {
    const rows = [
      ['ABCDEF-123456-XYZ', 'a very long note that would wrap any table at eighty columns', 'Not Used'],
      ['SHORT', 'short', 'Used'],
    ];
    const lines = renderTable([{ header: 'KEY', keepWhole: true }, { header: 'NOTE' }, { header: 'STATUS' }], rows, 40).lines;
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
    expect(lines[1]).toContain('ABCDEF-123456-XYZ');
    expect(lines[1]).toContain('  a very lon…  Not Used');
    expect(lines).toHaveLength(3);
  });

  it('right-aligns numbers and cuts a line that cannot fit at the edge', () => {
    const lines = renderTable([{ header: 'N', align: 'right' }, { header: 'NAME' }], [['7', 'x'], ['123', 'y']], 80).lines;
    expect(lines[1]).toBe('  7  x');
    const tight = renderTable([{ header: 'KEY', keepWhole: true }], [['0123456789012345678901234567890']], 10).lines;
    expect(tight.every((line) => [...line].length <= 10)).toBe(true);
  });

  it('leaves columns out from the right, and says which, rather than shortening text below its header', () => {
    const columns = [{ header: 'KEY', keepWhole: true }, { header: 'STATUS' }, { header: 'CREATED', keepWhole: true }, { header: 'NOTE' }];
    const { lines, hidden } = renderTable(columns, [['ABCDEFGHIJ-ABCDEFGHIJ', 'Not Used', '2026-11-23 12:00', 'hello there']], 50);
    expect(hidden).toEqual(['NOTE']);
    expect(lines[0]).toMatch(/^KEY\s+STATUS\s+CREATED$/);
    expect(lines[1]).toBe('ABCDEFGHIJ-ABCDEFGHIJ  Not Used  2026-11-23 12:00');
  });

  it('truncates by characters, not bytes', () => {
    expect(truncate('héllo wörld', 6)).toBe('héllo…');
    expect(truncate('short', 10)).toBe('short');
  });
});

describe('cell kinds', () => {
  it('shows time left from the clock it is given, and the date to machines', () => {
    const now = 1_700_000_000_000;
    expect(humanCell(String(now / 1000 + 30 * 86_400 + 3_600), 'timeleft', now)).toBe('30d 1h');
    expect(humanCell(String(now / 1000 - 5), 'timeleft', now)).toBe('expired');
    expect(machineCell('1700000000', 'timeleft')).toBe('2023-11-14T22:13:20Z');
  });

  it('shows booleans as yes/no to people and to the text formats, other values as they are', () => {
    expect(humanCell('1', 'boolean')).toBe('yes');
    expect(humanCell(0, 'boolean')).toBe('no');
    expect(humanCell('maybe', 'boolean')).toBe('maybe');
    expect(machineCell('1', 'boolean')).toBe('yes');
    expect(machineCell(false, 'boolean')).toBe('no');
    expect(machineCell('maybe', 'boolean')).toBe('maybe');
    expect(machineCell('1')).toBe('1');
  });
});
