/**
 * `kactl help [command…]`: the help of the command the words name, however deep (`kactl help
 * licenses create` is the verb's help, as `kactl licenses create --help`), or of a topic
 * (`kactl help environment`). Commander's own help command reads only the first word, and
 * answers a name it does not know with the whole program's help; this one says there is no such
 * topic and suggests the nearest (exit 2). bin/kactl.js answers it from the help written at build
 * when the output is piped, as it does for `--help`.
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

export function registerHelpCommand(program: Command, ctx: Context): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command...]', 'a command (`licenses create`) or a topic (`environment`, `exit-codes`)')
    .description('show the help of a command or a topic')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl help licenses create     # the same as kactl licenses create --help
  $ kactl help environment         # the variables kactl reads
  $ kactl help exit-codes`,
    )
    .action((words: string[]) => {
      const result = findCommand(program, words);
      if ('found' in result) {
        result.found.outputHelp();
        return;
      }
      const asked = words.slice(0, result.missing + 1).join(' ');
      const suggestion = commandSuggestion(words[result.missing]!, result.parent);
      // The usage line under the error names the help that lists what there is at that level.
      ctx.currentCommand = ['kactl', ...words.slice(0, result.missing)].join(' ');
      throw new UsageError(`No help topic or command "${asked}".`, { hints: suggestion === undefined ? [] : [suggestion] });
    });
}
