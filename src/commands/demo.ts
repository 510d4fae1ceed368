/**
 * `kactl demo` (what `npm start` runs): a whole licensing story against a sandbox started in
 * this process, each step a real kactl command line with its output. Needs no terminal and
 * leaves nothing behind: the store is in memory and the config folder is temporary.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { runDemo } from './demo/story.js';
import { inProcessRunner } from './demo/in-process.js';
import type { Registration } from './registration.js';

export function registerDemoCommand(program: Command, ctx: Context, { shell }: Registration): void {
  program
    .command('demo')
    .description('walk a whole story (seller creates licenses, a client registers, logs in, upgrades, uses variables, chat and 2FA) against a throwaway sandbox')
    .addHelpText(
      'after',
      `
Every step is a kactl command line you could type against your own sandbox (kactl sandbox start).
The demo starts its sandbox in this process on a free port, with an in-memory store and a
temporary config folder, and removes both when it ends.

Examples:
  $ kactl demo
  $ npm start`,
    )
    .action(async () => {
      await runDemo(ctx, inProcessRunner(shell.main));
    });
}
