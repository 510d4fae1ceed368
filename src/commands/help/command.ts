/**
 * `kactl help [command…]`: the help of the command the words name, however deep (`kactl help
 * licenses create` is the verb's help, as `kactl licenses create --help`), or of a topic
 * (`kactl help environment`); every group has one too (`kactl licenses help create`).
 * Commander's own help command reads only the first word, and answers a name it does not know
 * with the whole help; this one says there is no such topic and suggests the nearest (exit 2).
 * bin/kactl.js answers `kactl help …` from the help written at build when the output is piped,
 * as it does for `--help`.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { commandSuggestion } from '../parse-errors.js';

/** The command the words name, walking down from `program` by names and aliases. */
function findCommand(program: Command, words: readonly string[]): { found: Command } | { missing: number; parent: Command } {
  let node = program;
  for (const [index, word] of words.entries()) {
    const next = node.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (next === undefined) return { missing: index, parent: node };
    node = next;
  }
  return { found: node };
}

/** `licenses` for `kactl licenses`, `` for the program: the words that lead to `command`. */
function pathOf(command: Command): string[] {
  const names: string[] = [];
  for (let cmd: Command | null = command; cmd?.parent; cmd = cmd.parent) names.unshift(cmd.name());
  return names;
}

function examplesFor(parent: Command): string {
  const path = pathOf(parent);
  if (path.length === 0) {
    return `
Examples:
  $ kactl help licenses create     # the same as kactl licenses create --help
  $ kactl help environment         # the variables kactl reads
  $ kactl help exit-codes`;
  }
  const first = parent.commands.find((sub) => sub.name() !== 'help')?.name() ?? '';
  return `
Examples:
  $ kactl ${path.join(' ')} help ${first}     # the same as kactl ${path.join(' ')} ${first} --help`;
}

/**
 * Adds `help [command…]` to `parent` (the program, or a group: `kactl licenses help create`),
 * in place of commander's, which reads one word.
 */
export function addHelpCommand(parent: Command, ctx: Context): Command {
  parent.helpCommand(false);
  const path = pathOf(parent);
  return parent
    .command('help')
    .argument('[command...]', path.length === 0 ? 'a command (`licenses create`) or a topic (`environment`, `exit-codes`)' : 'a command')
    .description(path.length === 0 ? 'show the help of a command or a topic' : 'show the help of a command')
    .addHelpText('after', examplesFor(parent))
    .action((words: string[]) => {
      const result = findCommand(parent, words);
      if ('found' in result) {
        result.found.outputHelp();
        return;
      }
      const asked = [...path, ...words.slice(0, result.missing + 1)].join(' ');
      const suggestion = commandSuggestion(words[result.missing]!, result.parent);
      // The usage line under the error names the help that lists what there is at that level.
      ctx.currentCommand = ['kactl', ...path, ...words.slice(0, result.missing)].join(' ');
      throw new UsageError(`No help topic or command "${asked}".`, { hints: suggestion === undefined ? [] : [suggestion] });
    });
}
