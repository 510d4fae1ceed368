/**
 * `kactl apply`, `kactl export`, `kactl restore` and `kactl schema`: application state as a
 * file. Everything heavy (yaml, the planner) is imported inside the actions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Argument, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom, type ValueSource } from '../completion/value-source.js';
import { UsageError } from '../../errors.js';
import { STATE_SCHEMA, FLOWS_SCHEMA } from '../../state/schema.js';
import { restoreRun } from './restore.js';
import { exportRun } from './export.js';
import { applyRun } from './apply.js';

/** The backups kactl wrote, as paths (`<data folder>/backups/…`), newest last. */
const BACKUP_FILES: ValueSource = {
  kind: 'names',
  names: async (ctx) => {
    const dir = path.join(ctx.dataDir, 'backups');
    try {
      return fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => path.join(dir, name));
    } catch {
      return [];
    }
  },
};

/** commander's way to take an option more than once. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerStateCommands(program: Command, ctx: Context): void {
  program
    .command('apply')
    .description('make the server hold what a state file says (plan, then changes)')
    .requiredOption('-f, --file <file>', 'the state file (YAML or JSON)')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--prune', 'also delete records the file does not list (in the sections it has)')
    .option('--url <id=url>', 'the whole URL of a webhook the file holds only the start of (repeatable)', collect, [])
    .addHelpText('after', '\nExamples:\n  $ kactl apply -f kactl.yaml --dry-run\n  $ kactl apply -f kactl.yaml\n  $ kactl apply -f kactl.yaml --prune --yes   # backup first\n\n`!env NAME` in the file reads the environment variable NAME; `$$` stands for `$`.')
    .action(async (options: { file: string; dryRun?: boolean; prune?: boolean; url: string[] }) => {
      await applyRun(ctx, options);
    });

  program
    .command('export')
    .description("print the server's state as a state file (no passwords or secrets)")
    .addOption(new Option('-o, --output <format>', 'yaml or json').choices(['yaml', 'json']).default('yaml'))
    .addHelpText('after', '\nExamples:\n  $ kactl export > kactl.yaml\n  $ kactl export -o json --profile prod > prod.json')
    .action(async (options: { output: 'yaml' | 'json' }) => {
      await exportRun(ctx, options.output);
    });

  program
    .command('restore')
    .description('put back the records of backups kactl wrote before destructive changes (only what is missing)')
    .addArgument(completeFrom(new Argument('<backup...>', 'the backup files (in the data folder, backups/)'), BACKUP_FILES))
    .option('--dry-run', 'print what would be put back and change nothing')
    .option('--url <id=url>', 'the whole URL of a webhook the backup holds only the start of (repeatable)', collect, [])
    .option('--email <user=address>', 'the email address of a user put back, which no backup holds (repeatable)', collect, [])
    .option('--force', 'restore into another server or application than the backup was made from')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kactl restore ~/.local/share/kactl/backups/*-myapp-delalllicenses.json\n  $ kactl restore users.json licenses.json --url payhook=https://hooks.example.com/pay --yes\n  $ kactl restore users.json --email bob=bob@example.com --yes\n\nA state file (from kactl export) goes to kactl apply -f FILE instead.',
    )
    .action(async (files: string[], options: { dryRun?: boolean; force?: boolean; url: string[]; email: string[] }) => {
      await restoreRun(ctx, files, options);
    });

  program
    .command('schema')
    .description('print the JSON Schema of state files or flows files')
    .addArgument(completeFrom(new Argument('[kind]', 'state or flows').default('state'), { kind: 'names', names: () => Promise.resolve(['state', 'flows']) }))
    .addHelpText('after', '\nExample:\n  $ kactl schema state > kactl.schema.json')
    .action(async (kind: string) => {
      if (kind !== 'state' && kind !== 'flows') {
        throw new UsageError(`"${kind}" is not a schema: give state or flows.`);
      }
      ctx.output.json(kind === 'state' ? STATE_SCHEMA : FLOWS_SCHEMA);
    });
}
