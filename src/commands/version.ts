/**
 * `kactl version`: what to paste into a bug report (kactl, Node, platform, architecture), as
 * text or `--json`. `kactl --version` stays the bare number.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';

export interface VersionInfo {
  readonly kactl: string;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
}

export function registerVersionCommand(program: Command, ctx: Context): void {
  program
    .command('version')
    .description('print the kactl, Node, platform and architecture versions (--json for a record)')
    .addHelpText('after', '\nExamples:\n  $ kactl version\n  $ kactl version --json')
    .action(() => {
      const info: VersionInfo = { kactl: program.version() ?? 'unknown', ...ctx.runtime };
      if (ctx.output.wantsJson) return ctx.output.json(info);
      ctx.io.out(`kactl ${info.kactl}\nnode ${info.node}\nplatform ${info.platform} ${info.arch}\n`);
    });
}
