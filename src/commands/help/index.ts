/**
 * The help topics as commands: `kactl help environment` (commander's help command shows a
 * command's help, which for a topic is its text) and `kactl environment` print the same, laid
 * out at the width of the terminal (80 columns in a pipe).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { HELP_TOPICS } from './topics.js';
import { helpWidthOf } from './layout.js';

export function registerHelpTopics(program: Command, ctx: Context): void {
  for (const [name, topic] of Object.entries(HELP_TOPICS)) {
    // Hidden from the command list: the help's epilogue names the topics.
    const command = program.command(name, { hidden: true }).description(`help topic: ${topic.summary}`);
    command.helpInformation = (context?: { error?: boolean }) => topic.text(helpWidthOf(ctx.io, context?.error === true ? 'err' : 'out'));
    command.action(() => {
      ctx.io.out(topic.text(helpWidthOf(ctx.io, 'out')));
    });
  }
}
