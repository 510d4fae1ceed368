/**
 * The tables of a Markdown page as rows keyed by their header cells, for tests that hold a doc
 * page to the code (docs/operations.md, docs/protocol/client-api.md).
 */

export interface Row {
  /** 1-based line number in the page. */
  line: number;
  /** The nearest heading above the table, without its `#`s. */
  heading: string;
  cells: Record<string, string>;
}

/** The cells of a markdown table row; `\|` inside a cell is not a separator. */
function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Every body row of every table in `text`. */
export function tableRows(text: string): Row[] {
  const rows: Row[] = [];
  let header: string[] | undefined;
  let heading = '';
  text.split('\n').forEach((line, index) => {
    const title = /^#+\s+(.*)$/.exec(line);
    if (title) heading = title[1]!.trim();
    if (!line.trim().startsWith('|')) {
      header = undefined;
      return;
    }
    const cells = splitRow(line);
    if (header === undefined) {
      header = cells;
      return;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) return;
    rows.push({ line: index + 1, heading, cells: Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])) });
  });
  return rows;
}

/** The backtick spans of a cell. */
export function spans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** The text of the section under the heading `### <number> …` of a page, up to the next heading. */
export function numberedSection(text: string, number: string): { heading: string; body: string } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^#+\\s+${number.replace(/\./g, '\\.')}\\s`).test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^#+\s/.test(line));
  return { heading: lines[start]!.replace(/^#+\s+/, ''), body: lines.slice(start + 1, end < 0 ? undefined : end).join('\n') };
}
