/**
 * One catalog command path as one commander command: `kactl licenses delete [key]` with the
 * flags of every operation that shares the path, a boolean flag per selector (`--all`,
 * `--used`), `--dry-run` / `--no-backup` where they mean something, and help with the
 * summary, units and examples. The runner (`run-verb.ts`) loads nothing heavy until the
 * command runs, so `--help` stays light (docs/architecture.md, "Cold start").
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { columnName } from '../../api/seller-catalog/index.js';
import type { ColumnSpec, SellerOp } from '../../api/seller-catalog/index.js';
import { lowerFirst } from './wording.js';
import { KeyedOption, optionsForParam, selectorKey } from './param-options.js';
import { SELLER_EXTENSIONS } from './extensions.js';
import { defaultOp, flagsOf, positionalOf, type Verb } from './verb.js';
import { jsonOptions, jsonTakesOnlyFields, listViewOptions } from './list-view-options.js';
import { filterHelp, filterOptions } from './list-filters.js';
import { namesField } from './field-names.js';
import { DURATION_EXAMPLES } from '../../util/duration.js';
import { wrapWords } from '../../io/wrap.js';
import { runVerb } from './run-verb.js';

/** Short names people type by habit (gh, docker): `ls`, `rm`, `info`. */
const VERB_ALIASES: Readonly<Record<string, readonly string[]>> = { list: ['ls'], delete: ['rm'], get: ['info'] };

/** The words that name a verb: its name and its aliases. */
export function verbNames(name: string): readonly string[] {
  return [name, ...(VERB_ALIASES[name] ?? [])];
}

/** "(only with --all)" / "(not with --all)" when a flag belongs to some of the path's operations. */
function scopeNote(verb: Verb, ops: readonly SellerOp[]): string | undefined {
  if (ops.length === verb.ops.length) return undefined;
  const without = verb.ops.filter((op) => !ops.includes(op));
  if (without.some((op) => op.selector === undefined)) {
    return `(only with ${ops.map((op) => `--${op.selector}`).join(' or ')})`;
  }
  return `(not with ${without.map((op) => `--${op.selector}`).join(', ')})`;
}

/** The fields a list's rows or a record has (what --columns and --json FIELDS name). */
function fieldsOf(op: SellerOp): readonly ColumnSpec[] {
  const response = op.response;
  return response.kind === 'list' ? response.columns : response.kind === 'object' || response.kind === 'flat' ? response.fields : [];
}

function selectorDescription(op: SellerOp): string {
  const summary = lowerFirst(op.summary);
  return op.effect === 'bulk' ? `${summary} (asks for the app name or --yes; backs up first)` : summary;
}

/** Help is laid out for 80 columns, as commander lays out the options above it. */
const HELP_WIDTH = 80;

/** The help text under the options: examples, and what guards a destructive verb. */
function helpAfter(verb: Verb): string {
  const lines = ['', 'Examples:', ...verb.ops.map((op) => `  $ ${op.example}`)];
  const units = verb.ops.flatMap((op) => op.params.filter((p) => p.unit).map((p) => `--${p.flag} is in ${p.unit}`));
  if (units.length > 0) lines.push('', `Units: ${[...new Set(units)].join('; ')}, or a duration with its unit: ${DURATION_EXAMPLES}.`);
  lines.push(...filterHelp(verb.ops));
  const shown = verb.ops.map(fieldsOf).filter((fields) => fields.length > 0);
  if (shown.length > 0) {
    const names = [...new Set(shown.flat().map(columnName))];
    lines.push('', ...wrapWords(`Fields (--columns, --json FIELDS): ${names.join(', ')}.`, HELP_WIDTH));
  }
  if (verb.ops.some((op) => op.effect === 'bulk')) {
    lines.push(
      '',
      'Changes to many records ask you to type the application name on a terminal and need --yes',
      'without one. The records are first saved to a backup file in the data folder (--no-backup',
      'skips it); --dry-run prints the request and sends nothing.',
    );
  } else if (verb.ops.some((op) => op.effect === 'delete-one')) {
    lines.push('', 'Asks y/N on a terminal; needs --yes without one. --dry-run prints the request and sends nothing.');
  }
  return lines.join('\n');
}

export function addVerb(parent: Command, verb: Verb, ctx: Context): Command {
  const name = verb.command[verb.command.length - 1]!;
  const main = defaultOp(verb) ?? verb.ops[0]!;
  const command = parent.command(name).description(lowerFirst(main.summary));
  for (const alias of VERB_ALIASES[name] ?? []) command.alias(alias);

  const positional = positionalOf(verb);
  if (positional) {
    const { param, everyOp } = positional;
    const without = verb.ops.filter((op) => !op.params.includes(param)).map((op) => `--${op.selector}`);
    const note = everyOp || without.every((flag) => param.description.includes(flag)) ? '' : ` (not with ${without.join(', ')})`;
    command.argument(everyOp ? `<${param.flag}>` : `[${param.flag}]`, `${lowerFirst(param.description)}${note}`);
  }

  const extras = verb.ops.map((op) => SELLER_EXTENSIONS[op.type]).filter((e) => e !== undefined);
  for (const [flag, { param, ops }] of flagsOf(verb)) {
    const notes = [scopeNote(verb, ops), ...extras.map((e) => e.flagNotes?.[flag])].filter((n): n is string => n !== undefined);
    const description = extras.map((e) => e.flagDescriptions?.[flag]).find((d) => d !== undefined);
    const shown = description === undefined ? param : { ...param, description, serverDefault: undefined };
    for (const option of optionsForParam(shown, notes.join(' ') || undefined)) command.addOption(option);
  }
  for (const op of verb.ops) {
    if (op.selector !== undefined) command.addOption(new KeyedOption(`--${op.selector}`, selectorDescription(op), selectorKey(op.selector)));
  }
  for (const extra of extras) for (const option of extra.options?.() ?? []) command.addOption(option);
  const lists = verb.ops.filter((op) => op.response.kind === 'list');
  if (lists.length > 0) for (const option of [...listViewOptions(), ...filterOptions(lists)]) command.addOption(option);
  const shown = verb.ops.map(fieldsOf).filter((fields) => fields.length > 0);
  if (shown.length > 0) {
    for (const option of jsonOptions()) command.addOption(option);
    jsonTakesOnlyFields(command, (word) => namesField(shown, word));
  }
  if (verb.ops.some((op) => op.effect !== 'read')) {
    command.addOption(new Option('--dry-run', 'print the request that would be sent, and send nothing'));
  }
  if (verb.ops.some((op) => op.effect === 'bulk' && op.backupFrom !== undefined)) {
    command.addOption(new Option('--no-backup', 'skip the backup of the records the change touches'));
  }

  command.addHelpText('after', helpAfter(verb));
  command.action(async (...args: unknown[]) => {
    await runVerb(ctx, verb, args[args.length - 1] as Command);
  });
  return command;
}
