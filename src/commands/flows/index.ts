/**
 * `kactl test FILE…`: runs flows files (the story a protected program must survive) and says
 * which step of which flow failed, with the expectation and the answer. Without `--base-url`
 * or a profile each file gets an in-process sandbox seeded from its `seed:`.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { testRun } from './run.js';
import { inProcessRunner } from '../demo/in-process.js';
import type { Registration } from '../registration.js';

interface TestOptions {
  junit?: string;
  bail?: boolean;
}

export function registerTestCommand(program: Command, ctx: Context, { shell }: Registration): void {
  program
    .command('test')
    .description('run flows files against a fresh sandbox (or a server) and report each step')
    .argument('<files...>', 'flows files (YAML or JSON; kactl schema flows describes them)')
    .option('--junit <file>', 'also write a JUnit XML report (one testcase per flow)')
    .option('--bail', 'stop at the first failing flow')
    .addHelpText('after', '\nExamples:\n  $ kactl test examples/flows.yaml\n  $ kactl test flows/*.yaml --junit reports/kactl.xml\n  $ kactl test smoke.yaml --profile staging --json')
    .action(async (files: string[], options: TestOptions) => {
      await testRun(ctx, files, { ...options, runKactl: inProcessRunner(shell.main) });
    });
}
