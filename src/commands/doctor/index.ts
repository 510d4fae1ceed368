/**
 * `kactl doctor`: one line per check (✓ / ✗ on a terminal, ok / FAIL / skip when piped, or
 * `--json`), exit 1 when any check fails. The checks live in checks.ts.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { resultMark } from './results.js';


export function registerDoctorCommand(program: Command, ctx: Context): void {
  program
    .command('doctor')
    .description('check the setup: Node, the sandbox module, file permissions, folders writable, free space, the sandbox certificate authority, server reachable, API path, seller key, client app, signature key, clock')
    .addHelpText(
      'after',
      `
Exits 1 when any check fails; a check that needs an earlier one is skipped, not failed.

Examples:
  $ kactl doctor
  $ kactl doctor --profile prod --json`,
    )
    .action(async () => {
      const { runChecks } = await import('./checks.js');
      const results = await runChecks(ctx);
      if (results.some((r) => r.status === 'fail')) ctx.exitCode = 1;
      if (ctx.output.wantsJson) return ctx.output.json(results);
      for (const r of results) {
        ctx.io.out(`${resultMark(r.status, ctx.io.isStdoutTTY)} ${r.check}: ${r.detail}\n`);
      }
    });
}
