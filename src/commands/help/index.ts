/**
 * The help topics as commands: `kactl help environment` (commander's help command shows a
 * command's help, which for a topic is its text) and `kactl environment` print the same.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { HELP_TOPICS } from './topics.js';

export function registerHelpTopics(program: Command, ctx: Context): void {
  for (const [name, topic] of Object.entries(HELP_TOPICS)) {
    // Hidden from the command list: the help's epilogue names the topics.
    const command = program.command(name, { hidden: true }).description(`help topic: ${topic.summary}`);
    command.helpInformation = () => topic.text();
    command.action(() => {
      ctx.io.out(topic.text());
    });
  }
}
