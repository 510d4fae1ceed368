/**
 * One seller group (`kactl licenses`) from the catalog: a command per command path, nested
 * where the path has two words (`app hash add`), and the group's help listing every verb's
 * example. Loaded for `--help`: commander, the catalog and build-verb.ts only.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SELLER_GROUPS, commandsForGroup, opsForGroup } from '../../api/seller-catalog/index.js';
import type { SellerGroup, SellerOp } from '../../api/seller-catalog/index.js';
import { addVerb, verbNames } from './build-verb.js';
import { lowerFirst } from './wording.js';
import { reachedBy } from '../registration.js';

function examplesOf(ops: readonly SellerOp[]): string {
  return ['', 'Examples:', ...ops.map((op) => `  $ ${op.example}`)].join('\n');
}

/** The intermediate command of a two-word path (`app hash`), made once. */
function parentFor(groupCommand: Command, words: readonly string[]): Command {
  let parent = groupCommand;
  for (const word of words) {
    parent = parent.commands.find((c) => c.name() === word) ?? parent.command(word);
  }
  return parent;
}

/**
 * The group's command, with the verbs `word` reaches: the one it names (with its aliases; a
 * two-word path's first word names all under it), or every verb (no word, or one no verb has).
 */
export function addSellerGroup(program: Command, ctx: Context, group: SellerGroup, word?: string): Command {
  const groupCommand = program.command(group).description(lowerFirst(SELLER_GROUPS[group]));
  const nested = new Map<Command, SellerOp[]>();
  const all = commandsForGroup(group).map((entry) => ({ ...entry, names: verbNames(entry.command[0]!) }));
  for (const { command, ops } of reachedBy(all, word)) {
    const parent = parentFor(groupCommand, command.slice(0, -1));
    addVerb(parent, { group, command, ops }, ctx);
    if (parent !== groupCommand) nested.set(parent, [...(nested.get(parent) ?? []), ...ops]);
  }
  for (const [parent, ops] of nested) {
    parent.description(`${parent.commands.map((c) => c.name()).join(', ')}: ${ops.map((op) => lowerFirst(op.summary)).join('; ')}`);
    parent.addHelpText('after', examplesOf(ops));
  }
  groupCommand.addHelpText('after', examplesOf(opsForGroup(group)));
  return groupCommand;
}
