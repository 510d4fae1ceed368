/**
 * How every `--help` is laid out, at the width it is read at: the terminal's on a terminal, 80
 * columns in a pipe or a file (as commander does, and as the help written at build is). No line
 * is wider, and no word is split: a line breaks only at a space.
 *
 * - A group (`kactl licenses`) lists its commands first, then its own options, then one line that
 *   names `kactl help global-options`; a leaf lists its options, then the global ones. The
 *   program lists its commands under the headings of src/commands/registry.ts.
 * - Terms take at most two-fifths of the width: a longer one gets a line of its own, and its
 *   description goes under it, where the others' are.
 * - The text commands add under their options (examples, notes) is wrapped here too
 *   (`layoutHelpText`): a paragraph is filled again at the width, a list item or a `term  text`
 *   line hangs under its text, and an example (`$ kactl …`) breaks between shell words with a
 *   ` \` at the end of the line, so it still runs as written.
 */
import { Help } from 'commander';
import type { Command, Option } from 'commander';
import { wrapWords } from '../../io/wrap.js';

/** Characters a line takes on screen (help text holds no control characters). */
function widthOf(text: string): number {
  return [...text].length;
}

const INDENT = 2;
const GAP = 2;
/** A description with less room than this goes under its term instead. */
const MIN_DESCRIPTION = 20;

/** Where descriptions start at most: two-fifths of the width (32 at 80 columns). */
function termCap(width: number): number {
  return Math.max(12, Math.floor(width * 0.4));
}

/** Each line of `text` wrapped at `width` behind `indent`; blank lines kept. */
function wrapLines(text: string, width: number, indent: string): string[] {
  return text.split('\n').flatMap((line) => (line.trim() === '' ? [''] : wrapWords(line, width, indent)));
}

/** One `term  description` entry: the description beside the term, or under it when the term is longer than `termWidth`. */
export function itemLines(term: string, termWidth: number, description: string, width: number): string[] {
  const head = ' '.repeat(INDENT) + term;
  if (description.trim() === '') return [head];
  const column = INDENT + termWidth + GAP;
  if (width - column < MIN_DESCRIPTION) return [head, ...wrapLines(description, width, ' '.repeat(INDENT * 3))];
  const body = wrapLines(description, width, ' '.repeat(column));
  if (widthOf(term) > termWidth) return [head, ...body];
  return [head.padEnd(column) + body[0]!.trimStart(), ...body.slice(1)];
}

interface Item {
  readonly term: string;
  readonly description: string;
}

/** A heading and its entries, then a blank line; nothing without entries. */
function section(heading: string, items: readonly Item[], termWidth: number, width: number): string[] {
  if (items.length === 0) return [];
  return [heading, ...items.flatMap((item) => itemLines(item.term, termWidth, item.description, width)), ''];
}

/** The width terms are padded to: the longest shown, up to the cap. */
export function termWidthOf(items: readonly Item[], width: number): number {
  return Math.min(Math.max(0, ...items.map((item) => widthOf(item.term))), termCap(width));
}

/** The line under a group's options: global options are listed once, by their topic. */
export const GLOBAL_OPTIONS_POINTER = 'Global options (--profile, -o, --json, --yes, --verbose...) work on every command: kactl help global-options';

function optionItems(helper: Help, options: readonly Option[]): Item[] {
  return options.map((option) => ({ term: helper.optionTerm(option), description: helper.optionDescription(option) }));
}

/** Items grouped under their headings, in the order commander keeps (first appearance). */
function grouped<T>(helper: Help, all: readonly T[], visible: readonly T[], headingOf: (item: T) => string, toItem: (item: T) => Item): [string, Item[]][] {
  // commander's groupItems is typed for commands or options; the shape is the same for both.
  const groups = (helper.groupItems as unknown as (a: readonly T[], b: readonly T[], f: (item: T) => string) => Map<string, T[]>)(all, visible, headingOf);
  return [...groups].filter(([, items]) => items.length > 0).map(([heading, items]) => [heading, items.map(toItem)]);
}

/** commander's help, in kactl's order and wrapping (see the top of this file). */
function formatHelp(this: Help, cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const isGroup = cmd.commands.length > 0;
  const args = helper.visibleArguments(cmd).map((a) => ({ term: helper.argumentTerm(a), description: helper.argumentDescription(a) }));
  const options = grouped(helper, cmd.options, helper.visibleOptions(cmd), (o) => o.helpGroupHeading ?? 'Options:', (o) => optionItems(helper, [o])[0]!);
  const globals = isGroup ? [] : optionItems(helper, helper.visibleGlobalOptions(cmd));
  const commands = grouped(helper, cmd.commands, helper.visibleCommands(cmd), (c) => c.helpGroup() || 'Commands:', (c) => ({
    term: helper.subcommandTerm(c),
    description: helper.subcommandDescription(c),
  }));
  const termWidth = termWidthOf([...args, ...options.flatMap(([, items]) => items), ...globals, ...commands.flatMap(([, items]) => items)], width);
  const out = [...wrapWords(`Usage: ${helper.commandUsage(cmd)}`, width, '', ' '.repeat('Usage: '.length)), ''];
  const description = helper.commandDescription(cmd);
  if (description !== '') out.push(...wrapLines(description, width, ''), '');
  out.push(...section('Arguments:', args, termWidth, width));
  const optionSections = options.flatMap(([heading, items]) => section(heading, items, termWidth, width));
  if (isGroup) {
    out.push(...commands.flatMap(([heading, items]) => section(heading, items, termWidth, width)), ...optionSections);
    if (cmd.parent !== null) out.push(...wrapWords(GLOBAL_OPTIONS_POINTER, width), '');
  } else {
    out.push(...optionSections, ...section('Global Options:', globals, termWidth, width));
  }
  // A word longer than its line's room (wrapping never splits one) moves left as far as it needs.
  return out.map((line) => (widthOf(line) > width && !/\S\s+\S/.test(line.trim()) ? fitted(indentOf(line), line.trim(), width) : line)).join('\n');
}

/**
 * Help settings for every command. A leaf that defines a global's flag itself (`sandbox start
 * --app-name`) lists it once, under its own options: the global of the same name is left out
 * of its "Global Options" (the leaf's meaning is the one that applies there).
 */
export const HELP_CONFIG = {
  showGlobalOptions: true,
  sortSubcommands: false,
  formatHelp,
  visibleGlobalOptions(this: Help, cmd: Command): Option[] {
    const own = new Set(cmd.options.filter((o) => !o.hidden).flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)));
    return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !(o.long !== undefined && own.has(o.long)) && !(o.short !== undefined && own.has(o.short)));
  },
};

// ---------------------------------------------------------------------------------------------
// The text under the options.

const EXAMPLE = /^(\s*)\$ (.*)$/;
const LIST_ITEM = /^(\s*)([-*•] )(.*)$/;
/** `  --json FIELDS   only these fields…`: a term, two spaces or more, its text. */
const TWO_COLUMNS = /^(\s*)(\S(?:.*?\S)?)( {2,})(\S.*)$/;

const indentOf = (line: string): string => /^\s*/.exec(line)![0];

/** A line of running text: one a paragraph is made of. */
function isProse(line: string): boolean {
  return line.trim() !== '' && !EXAMPLE.test(line) && !LIST_ITEM.test(line) && !TWO_COLUMNS.test(line) && !line.trimStart().startsWith('#');
}

/** Shell words of a command line, quotes kept with their word; `comment` is what follows an unquoted ` #`. */
export function shellWords(command: string): { words: string[]; comment: string | undefined } {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i += 1) {
    const ch = command[i]!;
    if (quote !== undefined) {
      word += ch;
      if (ch === '\\' && quote === '"' && i + 1 < command.length) word += command[(i += 1)]!;
      else if (ch === quote) quote = undefined;
    } else if (ch === ' ' || ch === '\t') {
      if (word !== '') words.push(word);
      word = '';
    } else if (ch === '#' && word === '') {
      return { words, comment: command.slice(i) };
    } else if (ch === '\\' && i + 1 < command.length) {
      word += ch + command[(i += 1)]!;
    } else {
      if (ch === "'" || ch === '"') quote = ch;
      word += ch;
    }
  }
  if (word !== '') words.push(word);
  return { words, comment: undefined };
}

/** A command line as lines of at most `width`, each but the last ending in ` \` (the shell joins them). */
function continuedCommand(words: readonly string[], width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    // Room for the word and, since another line may follow, for ` \`.
    if (!empty && widthOf(line) + 1 + widthOf(word) + 2 > width) {
      lines.push(`${line} \\`);
      line = fitted(rest, word, width - 2);
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * `$ kactl …  # why` wider than the width: the comment keeps its column, or moves up to the
 * command, or goes on lines of its own under it (`# …` each); the command breaks between words
 * with ` \`.
 */
function wrapExample(indent: string, body: string, width: number): string[] {
  const { words, comment } = shellWords(body);
  const first = `${indent}$ `;
  const rest = `${indent}      `;
  const command = `${first}${words.join(' ')}`;
  if (comment === undefined) return continuedCommand(words, width, first, rest);
  const text = comment.replace(/^#\s*/, '');
  // Where the author put the comment, else just after the command, if it fits there whole;
  // else on lines of its own under the command.
  const note = `# ${text}`;
  const column = [widthOf(first) + widthOf(body.slice(0, body.length - comment.length)), widthOf(command) + 2].find((c) => c >= widthOf(command) + 2 && c + widthOf(note) <= width);
  if (column !== undefined) return [command.padEnd(column) + note];
  return [...continuedCommand(words, width, first, rest), ...wrapWords(text, width, `${indent}  # `)];
}

/** `word` behind `indent`, the indent shortened as far as the word needs to fit `width` (a long path, a quoted argument). */
function fitted(indent: string, word: string, width: number): string {
  return ' '.repeat(Math.max(0, Math.min(indent.length, width - widthOf(word)))) + word;
}

/** One line wider than the width that is not running text. */
function wrapLine(line: string, width: number): string[] {
  const example = EXAMPLE.exec(line);
  if (example) return wrapExample(example[1]!, example[2]!, width);
  const item = LIST_ITEM.exec(line);
  if (item) return wrapWords(item[3]!, width, item[1]! + item[2]!, item[1]! + ' '.repeat(item[2]!.length));
  const columns = TWO_COLUMNS.exec(line);
  if (columns) {
    const term = columns[1]! + columns[2]!;
    const start = widthOf(term) + columns[3]!.length;
    if (width - start >= MIN_DESCRIPTION) {
      const text = wrapWords(columns[4]!, width, ' '.repeat(start));
      return [term + columns[3]! + text[0]!.trimStart(), ...text.slice(1)];
    }
    return [term, ...wrapWords(columns[4]!, width, columns[1]! + ' '.repeat(INDENT * 2))];
  }
  return wrapWords(line, width, indentOf(line));
}

/**
 * Help text laid out at `width`: lines that fit are left as written; a paragraph with a line too
 * wide is filled again, and any other line too wide is wrapped by its kind (see the top).
 */
export function layoutHelpText(text: string, width: number): string {
  const lines = text.split('\n');
  if (lines.every((line) => widthOf(line) <= width)) return text;
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (!isProse(line)) {
      out.push(...(widthOf(line) <= width ? [line] : wrapLine(line, width)));
      i += 1;
      continue;
    }
    // The paragraph: this line and the prose lines under it at its indent, up to one ending a sentence with `:`.
    let end = i + 1;
    while (end < lines.length && !lines[end - 1]!.trimEnd().endsWith(':') && isProse(lines[end]!) && indentOf(lines[end]!) === indentOf(line)) end += 1;
    const paragraph = lines.slice(i, end);
    out.push(...(paragraph.some((l) => widthOf(l) > width) ? wrapWords(paragraph.join(' '), width, indentOf(line)) : paragraph));
    i = end;
  }
  // A word longer than its line's room (wrapping never splits one) moves left as far as it needs.
  return out.map((line) => (widthOf(line) > width && !/\S\s+\S/.test(line.trim()) ? fitted(indentOf(line), line.trim(), width) : line)).join('\n');
}

/** Help goes to a pipe or a file at 80 columns, as commander lays it out there. */
export const PIPED_HELP_WIDTH = 80;

/** The width help is laid out at on stdout (`out`) or stderr (`err`): the terminal's, or 80. */
export function helpWidthOf(io: { readonly isStdoutTTY: boolean; readonly columns: number; readonly stderrColumns?: number | undefined }, stream: 'out' | 'err'): number {
  if (stream === 'out') return io.isStdoutTTY ? io.columns : PIPED_HELP_WIDTH;
  return io.stderrColumns ?? PIPED_HELP_WIDTH;
}
