/**
 * Commander's parse errors (unknown option or command, a refused value) in kactl's words: one
 * sentence, capitalised and ended as our own errors are, then hint lines with the next step —
 * the nearest option of the command for an unknown one, `--out` for a file name given to `-o`.
 * Loaded with the program (it runs before any command module could load), so it stays small.
 */
import type { Command } from 'commander';
import { didYouMean, didYouMeanLine, nearestNames } from '../util/nearest.js';

export interface ParseErrorReport {
  /** The sentence, without the `error:` commander puts before it. */
  readonly message: string;
  /** Lines under it: a suggestion, the flag that does what was meant. */
  readonly hints: readonly string[];
}

/**
 * A capital letter to begin the sentence and after every full stop inside it, and a full stop to
 * end it: commander writes `argument '0' is invalid.` before a parser's own sentence, and ours
 * and the ones commander builds itself may begin in lower case.
 */
export function sentenceCase(text: string): string {
  const capitalised = text
    .replace(/^[a-z]/, (c) => c.toUpperCase())
    // Not after an abbreviation: `e.g. key,status` stays as it is.
    .replace(/(?<!\b(?:e\.g|i\.e))([.!?] )([a-z])/g, (_, stop: string, c: string) => `${stop}${c.toUpperCase()}`);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** The nearest long option of `command` to an unknown `--flag` (its `=value`, if any, left out). */
function optionSuggestion(flag: string, command: Command): string | undefined {
  if (!flag.startsWith('--')) return undefined;
  const typed = flag.split('=')[0]!;
  const longs = command.options.map((option) => option.long).filter((long): long is string => long !== undefined);
  // Compared without the dashes every candidate shares, so they count for nothing.
  return didYouMean(
    typed.slice(2),
    longs.map((long) => long.slice(2)),
    (name) => `--${name}`,
  );
}

/**
 * The subcommand of `command` nearest to an unknown name, by its name or an alias, each command
 * named once (`list`, not `list, ls`). Hidden help topics count (`kactl enviroment`); internal
 * commands (`__complete`) do not.
 */
export function commandSuggestion(name: string, command: Command): string | undefined {
  const byName = new Map<string, string>();
  for (const sub of command.commands) {
    if (sub.name().startsWith('_')) continue;
    for (const spelling of [sub.name(), ...sub.aliases()]) byName.set(spelling, sub.name());
  }
  return didYouMeanLine([...new Set(nearestNames(name, byName.keys()).map((spelling) => byName.get(spelling)!))]);
}

/** Looks like a file someone meant to write (`app.bin`, `out/keys.txt`), not a format name. */
function looksLikeFileName(value: string): boolean {
  return /[./\\]/.test(value);
}

/** `text` as commander wrote it to stderr (`error: …\n`), for `command`, the one that refused. */
export function explainParseError(text: string, command: Command): ParseErrorReport {
  let body = text.replace(/^error:\s*/, '').trimEnd();
  const hints: string[] = [];
  // Commander's own suggestion (unknown commands) follows on a line in parentheses.
  const suggested = /\n\((Did you mean [^\n]*\?)\)$/.exec(body);
  if (suggested) {
    body = body.slice(0, suggested.index);
    hints.push(suggested[1]!);
  }
  const unknownCommand = /^unknown command '([^']+)'$/.exec(body);
  if (unknownCommand) {
    hints.length = 0;
    const suggestion = commandSuggestion(unknownCommand[1]!, command);
    if (suggestion !== undefined) hints.push(suggestion);
  }
  const unknown = /^unknown option '([^']+)'$/.exec(body);
  if (unknown) {
    // Ours looks at every option the command takes, hidden global ones included.
    hints.length = 0;
    const suggestion = optionSuggestion(unknown[1]!, command);
    if (suggestion !== undefined) hints.push(suggestion);
  }
  const format = /^option '(?:-o, )?--output <format>' argument '([^']*)' is invalid/.exec(body);
  if (format && looksLikeFileName(format[1]!)) {
    const file = format[1]!;
    const hasOut = command.options.some((option) => option.long === '--out');
    hints.push(hasOut ? `-o is the output format; to write a file use --out ${file}.` : `-o is the output format; to save what is printed, redirect it: > ${file}`);
  }
  return { message: sentenceCase(body.replace(/\s*\n\s*/g, ' ')), hints };
}
