/**
 * `kactl completion bash|zsh|fish` prints a script; the script calls the hidden
 * `kactl __complete -- <words>` on each Tab, which prints one candidate a line.
 */
import { Argument } from 'commander';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { candidates } from './candidates.js';
import { COMPLETION_SCRIPTS, SHELLS } from './scripts.js';
import type { Shell as ShellName } from './scripts.js';
import type { Registration } from '../registration.js';

/**
 * How long one Tab may wait for live values in all, from the start of `__complete`: a person
 * pressing Tab expects an answer at once, and a slow server only means fewer candidates.
 */
export const COMPLETION_DEADLINE_MS = 2_000;

export function registerCompletionCommands(program: Command, ctx: Context, { shell }: Registration): void {
  program
    .command('completion')
    .description('print a shell completion script (commands, flags, and the names arguments take: profiles, sandboxes, users, keys, variables, channels, files)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  $ source <(kactl completion bash)        # in ~/.bashrc
  $ source <(kactl completion zsh)         # in ~/.zshrc, after compinit
  $ kactl completion fish > ~/.config/fish/completions/kactl.fish

Live values (subscription, user, variable, channel, file and webhook names, license keys) come
from the active profile's seller API in one request of at most 2 s, and are kept for a minute in
the data folder (license keys and session ids are never kept).`,
    )
    .action((name: ShellName) => {
      ctx.io.out(COMPLETION_SCRIPTS[name]);
    });

  program
    .command('__complete', { hidden: true })
    .description('print completion candidates for the words given (used by the completion scripts)')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[] | undefined) => {
      // A Tab press must not wait the full request timeout, a retry or the pacing budget.
      const deadline = AbortSignal.timeout(COMPLETION_DEADLINE_MS);
      ctx.setGlobals({ ...ctx.globals, timeout: ctx.globals.timeout ?? COMPLETION_DEADLINE_MS / 1000 });
      // The whole command tree, as `kactl --help` builds it (registration loads nothing heavy).
      const tree = await shell.buildProgram(ctx, []);
      const offered = await candidates(ctx, tree, words ?? [], deadline);
      if (offered.length > 0) ctx.io.out(`${offered.join('\n')}\n`);
    });
}
