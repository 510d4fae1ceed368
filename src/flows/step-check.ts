/**
 * What the flows schema cannot say about a step, checked when the file loads, before anything
 * runs: a client step names an operation of the client catalog (its wire type, `register`, or
 * the kactl command that sends it, `2fa enable`) and gives it only that operation's parameters
 * under `with:`; a seller step names a seller operation (`add`, or `licenses create`). A slip
 * (`client: regster`, `password:` for `pass:`) is refused with the file, its line and the
 * nearest name, exit 2, instead of failing mid-run with the server's "type parameter was not
 * found".
 */
import { clientCommandNames, clientTypes, resolveClientOp } from '../api/client-catalog/index.js';
import { findOpByPath, findSellerOp, knownSellerTypes, SELLER_CATALOG, SELLER_GROUP_ORDER } from '../api/seller-catalog/index.js';
import type { SellerGroup } from '../api/seller-catalog/index.js';
import { UsageError } from '../errors.js';
import type { LoadedFile } from '../state/load.js';
import type { DocPath } from '../state/validate.js';
import { didYouMeanLine, nearestNames } from '../util/nearest.js';

/** What kactl adds to every client call itself (`kactl client call` refuses them too). */
const ADDED_BY_KACTL = ['type', 'name', 'ownerid', 'sessionid'];

interface StepProblem {
  readonly path: DocPath;
  readonly message: string;
}

/** A seller step's wire type: the type itself (or an alias), or a kactl verb (`licenses create`). */
export function sellerType(name: string): string | undefined {
  const byType = findSellerOp(name);
  if (byType) return byType.type;
  const [group, ...command] = name.trim().split(/\s+/);
  if (!SELLER_GROUP_ORDER.includes(group as SellerGroup)) return undefined;
  return findOpByPath(group as SellerGroup, command)?.type;
}

/**
 * The names nearest to `word`: one that differs only in case first (`loginemail`), then the
 * usual typos and beginnings (util/nearest.ts), then one that `word` begins with (`password`
 * for `pass`, the CLI's flag for the wire name).
 */
function nearest(word: string, candidates: readonly string[]): string | undefined {
  const sameLetters = candidates.filter((candidate) => candidate.toLowerCase() === word.toLowerCase());
  if (sameLetters.length > 0) return didYouMeanLine(sameLetters);
  const near = nearestNames(word, candidates);
  if (near.length > 0) return didYouMeanLine(near);
  const typed = word.toLowerCase();
  return didYouMeanLine(candidates.filter((candidate) => candidate.length >= 3 && typed.startsWith(candidate.toLowerCase())));
}

/** `What is wrong. Did you mean x?`, or without a near name `What is wrong: what would do.` */
function sentence(wrong: string, suggestion: string | undefined, otherwise: string): string {
  return suggestion === undefined ? `${wrong}: ${otherwise}.` : `${wrong}. ${suggestion}`;
}

function clientStepProblems(step: Record<string, unknown>, at: DocPath): StepProblem[] {
  const name = String(step.client);
  const op = resolveClientOp(name);
  if (op === undefined) {
    const names = [...clientTypes(), ...clientCommandNames()];
    const message = sentence(`No client operation is called "${name}"`, nearest(name, names), 'name one by its wire type (login) or its kactl command (2fa enable); kactl schema flows lists them');
    return [{ path: [...at, 'client'], message }];
  }
  const given = step.with;
  if (given === null || typeof given !== 'object') return [];
  const wanted = op.params.map((param) => param.wire);
  const problems: StepProblem[] = [];
  for (const key of Object.keys(given)) {
    if (wanted.includes(key)) continue;
    const path = [...at, 'with', key];
    if (ADDED_BY_KACTL.includes(key)) {
      problems.push({ path, message: `The parameter "${key}" is added by kactl to every client call: leave it out of with.` });
    } else if (wanted.length === 0) {
      problems.push({ path, message: `The client operation ${op.type} takes no parameters, so not "${key}".` });
    } else {
      problems.push({ path, message: sentence(`The client operation ${op.type} has no parameter "${key}"`, nearest(key, wanted), `it takes ${wanted.join(', ')}`) });
    }
  }
  return problems;
}

function sellerStepProblems(step: Record<string, unknown>, at: DocPath): StepProblem[] {
  const name = String(step.seller);
  if (sellerType(name) !== undefined) return [];
  const verbs = SELLER_CATALOG.filter((op) => op.selector === undefined).map((op) => [op.group, ...op.command].join(' '));
  const message = sentence(`No seller operation is called "${name}"`, nearest(name, [...knownSellerTypes(), ...verbs]), 'name one by its wire type (add) or its kactl command (licenses create)');
  return [{ path: [...at, 'seller'], message }];
}

/** Refuses (exit 2) a flows file whose steps name an unknown operation or parameter; the first problem, with its line. */
export function checkFlowSteps(loaded: LoadedFile): void {
  const flows = Array.isArray(loaded.value.flows) ? (loaded.value.flows as { steps?: unknown }[]) : [];
  const problems: StepProblem[] = [];
  flows.forEach((flow, flowIndex) => {
    const steps = Array.isArray(flow.steps) ? (flow.steps as Record<string, unknown>[]) : [];
    steps.forEach((step, stepIndex) => {
      const at: DocPath = ['flows', flowIndex, 'steps', stepIndex];
      if (typeof step.client === 'string') problems.push(...clientStepProblems(step, at));
      if (typeof step.seller === 'string') problems.push(...sellerStepProblems(step, at));
    });
  });
  const first = problems[0];
  if (first === undefined) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'})` : '';
  throw new UsageError(`${loaded.file}, line ${loaded.lineOf(first.path)}: ${first.message}${more}`);
}
