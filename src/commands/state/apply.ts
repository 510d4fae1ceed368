/**
 * `kactl apply -f FILE`: make the server hold what a state file says. Reads the current state,
 * prints the plan (stdout: it is the command's data), checks every call the plan makes, and
 * carries it out unless `--dry-run`. `--prune` also deletes what the file's sections do not
 * list (sections the file leaves out are never touched), under the destructive-action rules:
 * the application name typed on a terminal or `--yes`, and a backup of the records first.
 *
 * What cannot be done through the seller API (a used key made unused, a webhook whose URL the
 * file holds only the start of) is said before the plan, and the run ends with exit 1: the
 * server does not match the file, so it never says it does.
 */
import type { Context } from '../../context.js';
import type { SellerApi } from '../../api/seller-api.js';
import type { Action, Planning } from '../../state/actions.js';
import { planning } from '../../state/actions.js';
import type { RunResult } from '../../state/run-plan.js';
import { InterruptedError, PartialFailure, UsageError } from '../../errors.js';
import { shellQuote } from '../../util/shell-quote.js';
import { applicationName, wherePhrase } from '../seller/guard.js';
import { confirmTyped } from '../../io/ask.js';
import { STATE_SCHEMA } from '../../state/schema.js';

export interface ApplyOptions {
  file: string;
  dryRun?: boolean;
  prune?: boolean;
  url?: string[];
}

/** Reads and checks a state file; `!env NAME` reads the environment. */
export async function readStateFile(ctx: Context, file: string): Promise<Record<string, unknown>> {
  const { loadFile } = await import('../../state/load.js');
  const { stateProblems } = await import('../../state/check.js');
  const loaded = loadFile(file, STATE_SCHEMA, { env: ctx.env, stateAt: [[]] });
  const [first, ...more] = stateProblems(loaded.value);
  if (first) {
    const path = first.path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
    throw new UsageError(`${file}, line ${loaded.lineOf(first.path)}: ${path}: ${first.message}${more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})` : ''}.`);
  }
  return loaded.value;
}

/** `--url ID=URL`, repeatable: the whole URL of a webhook the file holds only the start of. */
export function parseUrls(values: readonly string[] | undefined): Map<string, string> {
  const urls = new Map<string, string>();
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at < 1) throw new UsageError(`--url takes ID=URL (the webhook's id, then its whole URL), not "${value}".`);
    urls.set(value.slice(0, at), value.slice(at + 1));
  }
  return urls;
}

/** The command that does the rest of a run cut short, as the user would type it. */
export function resumeCommand(ctx: Context, words: readonly string[]): string {
  const { profile, baseUrl } = ctx.globals;
  const globals = [...(profile === undefined ? [] : ['--profile', profile]), ...(baseUrl === undefined ? [] : ['--base-url', baseUrl])];
  return ['kactl', ...globals, ...words].map(shellQuote).join(' ');
}

export interface ApplyStateOptions {
  dryRun?: boolean;
  prune?: boolean;
  /** Restore: create what is missing, leave what is there. */
  createOnly?: boolean;
  urls?: ReadonlyMap<string, string>;
  /** The file, for messages. */
  source: string;
  /** Print nothing on stdout (a sandbox's seed: the ready line is the data there). */
  quiet?: boolean;
  /** What finishes the job when this run is cut short. */
  resume: string;
  /** Records already known to be left out (a restore's). */
  leftOut?: readonly string[];
  /** Said before the plan when it has an action `applies` to (what comes back different). */
  notes?: readonly { applies: (action: Action) => boolean; text: string }[];
  /** Words a user's create line adds, by username (a restore's: what of theirs cannot come back). */
  userDetail?: ReadonlyMap<string, readonly string[]>;
  /** Lines said before the plan about the users it makes (`made`): what of theirs cannot come back. */
  userGaps?: (made: ReadonlySet<string>) => readonly string[];
  /** A restore: its words ("put back") instead of apply's. */
  restoring?: boolean;
  /** Asked after the plan is shown and before the first change (restore's y/N). */
  confirm?: () => Promise<void>;
  /** Carry the plan out through `api` itself, not a profile's (a sandbox's seed). */
  ownApi?: boolean;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Plans and applies a state body; the shared core of apply, restore and `sandbox start --seed`. */
export async function applyState(ctx: Context, api: SellerApi, state: Record<string, unknown>, options: ApplyStateOptions): Promise<{ actions: Action[]; changed: number }> {
  const { planState, countActions, countsLine, planLine, planJson, changes } = await import('../../state/plan.js');
  const { callProblems } = await import('../../state/check.js');
  const plan = planning({ prune: options.prune ?? false, createOnly: options.createOnly ?? false, urls: options.urls ?? new Map(), userDetail: options.userDetail ?? new Map() });
  plan.leftOut.push(...(options.leftOut ?? []));
  const actions = await planState(api, state, plan);
  const problems = callProblems(actions);
  if (problems.length > 0) throw new UsageError(`${options.source}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}; nothing was changed.`);
  const counts = countActions(actions);
  const leftOut = plan.leftOut;
  sayBeforePlan(ctx, actions, plan, options);
  const json = ctx.output.wantsJson && !options.quiet;
  const restoring = options.restoring ?? false;
  if (!json && !options.quiet) {
    if (changes(actions).length === 0 && leftOut.length === 0) {
      ctx.output.line(restoring ? `Nothing to put back: every record in ${options.source} is on the server.` : `No changes: the server already matches ${options.source}.`);
    }
    for (const action of actions) ctx.output.line(planLine(action));
    if (changes(actions).length > 0) ctx.output.line(countsLine(counts));
  }
  const notMatched = (made: number): PartialFailure => {
    const did = made === 0 ? 'Nothing was changed' : restoring ? `${plural(made, 'record was', 'records were')} put back` : `${plural(made, 'change was', 'changes were')} made`;
    const missed = restoring ? `${plural(leftOut.length, 'record')} could not be put back` : `${plural(leftOut.length, 'record')} could not be made to match ${options.source}`;
    return new PartialFailure(`${did}, but ${missed} (said above).`, { leftOut });
  };
  if (options.dryRun || actions.length === 0) {
    if (json) ctx.output.json({ dryRun: options.dryRun ?? false, plan: planJson(actions), counts, leftOut });
    if (!options.dryRun && leftOut.length > 0) throw notMatched(0);
    return { actions, changed: 0 };
  }
  await options.confirm?.();
  const deletions = actions.filter((a) => a.verb === 'delete');
  if (deletions.length > 0) await guardPrune(ctx, api, deletions);
  const { runPlan } = await import('../../state/run-plan.js');
  const roundTripMs = api.meanRoundTripMs();
  const result = await runPlan(ctx, actions, {
    label: restoring ? 'Restoring' : 'Applying',
    quiet: options.quiet ?? false,
    ...(roundTripMs === undefined ? {} : { roundTripMs }),
    ...(options.ownApi ? { api } : {}),
  });
  const randomPasswords = result.done.flatMap((a) => (a.randomPassword === undefined ? [] : [a.randomPassword]));
  if (json) {
    ctx.output.json({
      dryRun: false, plan: planJson(actions), counts, done: planJson(result.done), notDone: planJson(result.notDone), leftOut, randomPasswords,
      ...(result.halfDone.length > 0 ? { halfDone: result.halfDone.map((h) => h.error.message) } : {}),
      ...(result.failed ? { error: result.failed.message } : {}),
    });
  }
  if (randomPasswords.length > 0) {
    ctx.output.note(`${plural(randomPasswords.length, 'user has', 'users have')} a random password nobody knows, since no password was given (backups and exports hold none): ${randomPasswords.join(', ')}.`);
    ctx.output.note(`Give each a password they can sign in with: kactl users set-password USER --password-stdin`);
  }
  if (result.failed || result.interrupted) throw stopped(ctx, result, json, options.resume, { planLine, changes });
  const made = changes(result.done).length;
  if (leftOut.length > 0) throw notMatched(made);
  if (!options.quiet) {
    const ensured = made === result.done.length ? '' : ` (and ${result.done.length - made} ensured)`;
    ctx.output.success(restoring ? `Put back ${plural(made, 'record')} from ${options.source}.` : `Applied ${options.source}: ${plural(made, 'change')}${ensured}.`);
  }
  return { actions, changed: made };
}

/**
 * Said before the plan: what comes back different (the caller's notes, what of the users made
 * cannot come back, what the planner keeps as it is), then what cannot be done at all.
 */
function sayBeforePlan(ctx: Context, actions: readonly Action[], plan: Planning, options: ApplyStateOptions): void {
  for (const note of options.notes ?? []) if (actions.some(note.applies)) ctx.output.note(note.text);
  const made = new Set(actions.flatMap((a) => (a.section === 'users' && a.verb === 'create' && a.lane !== undefined ? [a.lane.replace(/^user:/, '')] : [])));
  for (const line of options.userGaps?.(made) ?? []) ctx.output.note(line);
  for (const line of plan.notes) ctx.output.note(line);
  for (const line of plan.leftOut) ctx.output.warn(line);
}

/** A run cut short (a failure or Ctrl-C): what was done and what not, and the error that says how to finish. */
function stopped(ctx: Context, result: RunResult, json: boolean, resume: string, helpers: { planLine: (a: Action) => string; changes: (a: readonly Action[]) => Action[] }): Error {
  const { planLine, changes } = helpers;
  if (!json) {
    ctx.output.note(`Done (${result.done.length}):`);
    for (const action of result.done) ctx.output.note(`  ${planLine(action)}`);
    ctx.output.note(`Not done (${result.notDone.length}):`);
    for (const action of result.notDone) ctx.output.note(`  ${planLine(action)}`);
  }
  const half = result.halfDone.map((h) => ` Half done: ${h.error.message}`).join('');
  const made = `${plural(changes(result.done).length, 'change was', 'changes were')} made, ${result.notDone.length} not.${half}`;
  if (result.failed === undefined) return new InterruptedError(`Interrupted: ${made} To finish, run: ${resume}`);
  const { action, message } = result.failed;
  return new PartialFailure(`Stopped at ${action.verb} ${action.section} ${action.id}: ${message.replace(/\.$/, '')}. ${made} To finish, run: ${resume}`, {
    done: result.done.length,
    notDone: result.notDone.length,
    halfDone: result.halfDone.length,
  });
}

/** Deleting records: confirmation as for any bulk change, then one backup file per record type. */
async function guardPrune(ctx: Context, api: SellerApi, deletions: readonly Action[]): Promise<void> {
  const appName = !ctx.globals.yes && ctx.io.canPrompt() ? await applicationName(ctx) : undefined;
  const what = `--prune deletes ${deletions.length.toLocaleString('en-US')} record${deletions.length === 1 ? '' : 's'} the file does not list`;
  await confirmTyped(ctx, `${what}${appName === undefined ? '' : ` from ${appName}`} ${await wherePhrase(ctx)}.`, appName ?? '');
  const { writeSectionBackup } = await import('../../state/backup.js');
  const sections = [...new Set(deletions.map((a) => a.section))];
  try {
    for (const section of sections) {
      const { path, count, missing } = await writeSectionBackup(ctx, api, section, appName);
      ctx.output.note(`Backup of ${count} ${section} written to ${path}`);
      for (const line of missing) ctx.output.note(line);
    }
  } catch (error) {
    ctx.output.warn('The backup could not be made, so nothing was changed.');
    throw error;
  }
}

export async function applyRun(ctx: Context, options: ApplyOptions): Promise<void> {
  const urls = parseUrls(options.url);
  const state = await readStateFile(ctx, options.file);
  const api = await ctx.sellerApi();
  const resume = resumeCommand(ctx, ['apply', '-f', options.file, ...(options.prune ? ['--prune', '--yes'] : []), ...[...urls].flatMap(([id, url]) => ['--url', `${id}=${url}`])]);
  await applyState(ctx, api, state, { ...options, urls, source: options.file, resume });
}
