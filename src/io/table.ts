/**
 * A table for people that fits the terminal: one line per row, never wrapped. When the natural
 * widths do not fit, the widest free-text columns give up characters first (their cells end in
 * an ellipsis); keys, URLs, dates and numbers stay whole. When that is not enough, columns are
 * left out, the least important first (`priority`; among equals, from the right), and the caller
 * says which. Pure: cells in, lines out.
 */

export interface TableColumn {
  readonly header: string;
  /** Numbers read better right-aligned. */
  readonly align?: 'left' | 'right';
  /** Shortened only as a last resort (a cut key cannot be copied). */
  readonly keepWhole?: boolean;
  /**
   * Which columns stay when not all fit: a lower priority is left out first (default 0); among
   * equal priorities the rightmost goes first.
   */
  readonly priority?: number;
}

/** Space between columns. */
export const COLUMN_GAP = 2;
/** A shortened column keeps at least this many characters (ellipsis included). */
const MIN_WIDTH = 4;
/** Free text is not shortened below this (or its header) before columns are left out. */
const READABLE_WIDTH = 8;
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
  return `${chars.slice(0, width - 1).join('').trimEnd()}${ELLIPSIS}`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Column widths that fit `maxWidth` (gaps included) where possible: natural widths, then the
 * widest column among the shortenable ones loses one character at a time, down to `minWidths`;
 * with `force`, every column goes down to a few characters.
 */
export function fitWidths(natural: readonly number[], keepWhole: readonly boolean[], maxWidth: number, minWidths?: readonly number[], force = true): number[] {
  const widths = [...natural];
  const floor = (i: number): number => Math.min(minWidths?.[i] ?? MIN_WIDTH, natural[i]!);
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
  const shrinkOne = (allowed: (i: number) => boolean, lowest: (i: number) => number): boolean => {
    let widest = -1;
    widths.forEach((w, i) => {
      if (allowed(i) && w > lowest(i) && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) return false;
    widths[widest]! -= 1;
    return true;
  };
  while (total() > maxWidth && shrinkOne((i) => !keepWhole[i], floor));
  if (!force) return widths;
  const last = (i: number): number => Math.min(MIN_WIDTH, natural[i]!);
  while (total() > maxWidth && shrinkOne((i) => !keepWhole[i], last));
  while (total() > maxWidth && shrinkOne(() => true, last));
  return widths;
}

function sumWithGaps(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
}

export interface FittedTable {
  /** Header line first; each at most `maxWidth` characters. */
  readonly lines: string[];
  /** Headers of the columns left out (from the right) because even shortened they did not fit. */
  readonly hidden: string[];
}

/**
 * The table's lines. Free text is shortened to no less than its header (or 8 characters); when
 * that is not enough, columns are left out by priority (the least important first, and among
 * equals from the right: the catalog lists the most useful first), and only a single remaining
 * column is cut further.
 */
export function renderTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[], maxWidth: number): FittedTable {
  const natural = columns.map((col, i) => Math.max(displayWidth(col.header), ...rows.map((row) => displayWidth(row[i] ?? ''))));
  const keepWhole = columns.map((col) => col.keepWhole === true);
  const readable = columns.map((col) => Math.max(displayWidth(col.header), READABLE_WIDTH));
  // The order columns leave in: lowest priority first, the rightmost of equals first.
  const leaving = columns.map((_, i) => i).sort((a, b) => (columns[a]!.priority ?? 0) - (columns[b]!.priority ?? 0) || b - a);
  let kept = columns.map((_, i) => i);
  const fit = (force: boolean): number[] =>
    fitWidths(
      kept.map((i) => natural[i]!),
      kept.map((i) => keepWhole[i]!),
      maxWidth,
      kept.map((i) => readable[i]!),
      force,
    );
  let widths = fit(false);
  for (const next of leaving) {
    if (kept.length <= 1 || sumWithGaps(widths) <= maxWidth) break;
    kept = kept.filter((i) => i !== next);
    widths = fit(false);
  }
  if (sumWithGaps(widths) > maxWidth) widths = fit(true);
  const line = (cells: readonly string[]): string => {
    const text = kept
      .map((index, i) => pad(truncate(cells[index] ?? '', widths[i]!), widths[i]!, columns[index]!.align ?? 'left'))
      .join(' '.repeat(COLUMN_GAP))
      .trimEnd();
    return truncate(text, maxWidth);
  };
  return {
    lines: [line(columns.map((col) => col.header)), ...rows.map(line)],
    hidden: columns.filter((_, i) => !kept.includes(i)).map((col) => col.header),
  };
}
