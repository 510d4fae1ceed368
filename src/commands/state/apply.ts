/**
 * `kactl apply -f FILE`: make the server hold what a state file says. Reads the current state,
 * prints the plan (stdout: it is the command's data), and carries it out unless `--dry-run`.
 * `--prune` also deletes what the file's sections do not list (sections the file leaves out
 * are never touched), under the destructive-action rules: the application name typed on a
 * terminal or `--yes`, and a backup of the records first.
 */
import type { Context } from '../../context.js';
import type { SellerApi } from '../../api/seller-api.js';
import type { Action } from '../../state/records.js';

export interface ApplyOptions {
  file: string;
  dryRun?: boolean;
  prune?: boolean;
}

/** Reads and checks a state file, with `${VAR}` taken from the environment. */
export async function readStateFile(ctx: Context, file: string): Promise<Record<string, unknown>> {
  const { loadFile, withEnvironment } = await import('../../state/load.js');
  const { STATE_SCHEMA } = await import('../../state/schema.js');
  const loaded = loadFile(file, STATE_SCHEMA);
  return withEnvironment(loaded, loaded.value, ctx.env);
}

/** Plans and applies a state body; the shared core of apply, restore and `sandbox start --seed`. */
export async function applyState(ctx: Context, api: SellerApi, state: Record<string, unknown>, options: { dryRun?: boolean; prune?: boolean; source: string; quiet?: boolean }): Promise<{ actions: Action[]; changed: number }> {
  const { planState, countActions, countsLine, planLine, planJson, changes } = await import('../../state/plan.js');
  const actions = await planState(api, state, { prune: options.prune ?? false });
  const counts = countActions(actions);
  // A quiet apply (a sandbox's seed) prints nothing on stdout: the ready line is the data there.
  const json = ctx.output.wantsJson && !options.quiet;
  if (!json && !options.quiet) {
    if (changes(actions).length === 0) ctx.output.line(`No changes: the server already matches ${options.source}.`);
    for (const action of actions) ctx.output.line(planLine(action));
    if (changes(actions).length > 0) ctx.output.line(countsLine(counts));
  }
  if (options.dryRun || actions.length === 0) {
    if (json) ctx.output.json({ dryRun: options.dryRun ?? false, plan: planJson(actions), counts });
    return { actions, changed: 0 };
  }
  const deletions = actions.filter((a) => a.verb === 'delete');
  if (deletions.length > 0) await guardPrune(ctx, api, deletions);
  const { execute, partialError } = await import('../../state/execute.js');
  const result = await execute(ctx, api, actions, (line) => {
    if (!options.quiet) ctx.verbose(line);
  });
  if (json) ctx.output.json({ dryRun: false, plan: planJson(actions), counts, done: planJson(result.done), notDone: planJson(result.notDone), ...(result.failed ? { error: result.failed.message } : {}) });
  if (result.failed) {
    if (!json) {
      ctx.output.note(`Done (${result.done.length}):`);
      for (const action of result.done) ctx.output.note(`  ${planLine(action)}`);
      ctx.output.note(`Not done (${result.notDone.length}):`);
      for (const action of result.notDone) ctx.output.note(`  ${planLine(action)}`);
    }
    throw partialError(result);
  }
  const made = changes(result.done).length;
  if (!options.quiet) ctx.output.success(`Applied ${options.source}: ${made} change${made === 1 ? '' : 's'}${made === result.done.length ? '' : ` (and ${result.done.length - made} ensured)`}.`);
  return { actions, changed: made };
}

/** Deleting records: confirmation as for any bulk change, then one backup file per record type. */
async function guardPrune(ctx: Context, api: SellerApi, deletions: readonly Action[]): Promise<void> {
  const { confirmTyped } = await import('../../io/ask.js');
  const { applicationName, wherePhrase } = await import('../seller/guard.js');
  const appName = !ctx.globals.yes && ctx.io.canPrompt() ? await applicationName(ctx) : undefined;
  const what = `--prune deletes ${deletions.length.toLocaleString('en-US')} record${deletions.length === 1 ? '' : 's'} the file does not list`;
  await confirmTyped(ctx, `${what}${appName === undefined ? '' : ` from ${appName}`} ${await wherePhrase(ctx)}.`, appName ?? '');
  const { writeSectionBackup } = await import('../../state/backup.js');
  const sections = [...new Set(deletions.map((a) => a.section))];
  try {
    for (const section of sections) {
      const { path, count } = await writeSectionBackup(ctx, api, section, appName);
      ctx.output.note(`Backup of ${count} ${section} written to ${path}`);
    }
  } catch (error) {
    ctx.output.warn('The backup could not be made, so nothing was changed.');
    throw error;
  }
}

export async function applyRun(ctx: Context, options: ApplyOptions): Promise<void> {
  const state = await readStateFile(ctx, options.file);
  const api = await ctx.sellerApi();
  await applyState(ctx, api, state, { ...options, source: options.file });
}
