/**
 * A table for people that fits the terminal: one line per row, never wrapped. When the natural
 * widths do not fit, the widest shortenable columns give up characters first (their cells end
 * in an ellipsis); keys, ids and secrets are shortened only when nothing else is left, and a
 * line that still does not fit is cut at the edge. Pure: cells in, lines out.
 */

export interface TableColumn {
  readonly header: string;
  /** Numbers read better right-aligned. */
  readonly align?: 'left' | 'right';
  /** Shortened only as a last resort (a cut key cannot be copied). */
  readonly keepWhole?: boolean;
}

/** Space between columns. */
export const COLUMN_GAP = 2;
/** A shortened column keeps at least this many characters (ellipsis included). */
const MIN_WIDTH = 4;
const ELLIPSIS = '…';

/** Characters a string takes on screen; code points, as cells carry no control characters. */
export function displayWidth(text: string): number {
  return [...text].length;
}

/** `text` cut to `width` characters, ending in an ellipsis when something was removed. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 0) return '';
  return `${chars.slice(0, width - 1).join('')}${ELLIPSIS}`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Column widths that fit `maxWidth` (gaps included) where possible: natural widths, then the
 * widest column among the shortenable ones loses one character at a time.
 */
export function fitWidths(natural: readonly number[], keepWhole: readonly boolean[], maxWidth: number): number[] {
  const widths = [...natural];
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
  const shrinkOne = (allowed: (i: number) => boolean): boolean => {
    let widest = -1;
    widths.forEach((w, i) => {
      if (allowed(i) && w > Math.min(MIN_WIDTH, natural[i]!) && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) return false;
    widths[widest]! -= 1;
    return true;
  };
  while (total() > maxWidth && shrinkOne((i) => !keepWhole[i]));
  while (total() > maxWidth && shrinkOne(() => true));
  return widths;
}

/** The table's lines (header first), each at most `maxWidth` characters. */
export function renderTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[], maxWidth: number): string[] {
  const natural = columns.map((col, i) => Math.max(displayWidth(col.header), ...rows.map((row) => displayWidth(row[i] ?? ''))));
  const widths = fitWidths(natural, columns.map((col) => col.keepWhole === true), maxWidth);
  const line = (cells: readonly string[]): string => {
    const text = columns
      .map((col, i) => pad(truncate(cells[i] ?? '', widths[i]!), widths[i]!, col.align ?? 'left'))
      .join(' '.repeat(COLUMN_GAP))
      .trimEnd();
    return truncate(text, maxWidth);
  };
  return [line(columns.map((col) => col.header)), ...rows.map(line)];
}
