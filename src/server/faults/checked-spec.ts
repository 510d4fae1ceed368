/**
 * A fault as a tester asks for it, checked whole: spec.ts's rules, then each `--type` against the
 * API catalogs, so a misspelt type (`logn`) is refused with the nearest name instead of being
 * held by a fault that can never fire. The admin route, the dashboard's form and `kactl sandbox
 * fault add` all call `checkFaultInput`.
 *
 * A fault hits the APIs its `--api` names, else every API its kind can hit (spec.ts); a type
 * must be one of theirs: client types (src/api/client-catalog/) for 1.3 and 1.2, seller types
 * and aliases (src/api/seller-catalog/) for the seller API. Pages have no type.
 */
import { clientTypes } from '../../api/client-catalog/index.js';
import { knownSellerTypes } from '../../api/seller-catalog/index.js';
import { nearestNames } from '../../util/nearest.js';
import { kindInfo, parseFaultSpec, type FaultApi, type FaultInput, type FaultSpec } from './spec.js';

/** The nearest names to a word, said as `a` or `a or b`, or undefined. Differing in case only counts as nearest. */
export function suggestName(word: string, candidates: readonly string[]): string | undefined {
  const sameLetters = candidates.filter((candidate) => candidate.toLowerCase() === word.toLowerCase() && candidate !== word);
  const found = sameLetters.length > 0 ? sameLetters : nearestNames(word, candidates);
  return found.length === 0 ? undefined : found.slice(0, 3).join(' or ');
}

const API_WORDS: Readonly<Record<FaultApi, string>> = { '1.3': 'client', '1.2': 'client', seller: 'seller', page: 'page' };

function typesOf(api: FaultApi): readonly string[] {
  if (api === 'seller') return knownSellerTypes();
  return api === 'page' ? [] : clientTypes();
}

/** `1.3`, `1.3 and 1.2`, `1.3, 1.2 and seller`. */
function inWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** Why `type` can never match an answer the fault hits, or undefined when it can. */
export function typeError(type: string, apis: readonly FaultApi[]): string | undefined {
  if (apis.some((api) => typesOf(api).includes(type))) return undefined;
  if (apis.every((api) => api === 'page')) return '--type cannot be given with --api page: page answers have no API type';
  const shown = `"${type.slice(0, 40)}"`;
  const elsewhere = (['1.3', 'seller'] as const).find((api) => typesOf(api).includes(type));
  const hits = inWords([...new Set(apis)]);
  if (elsewhere !== undefined) return `--type ${shown} is a ${API_WORDS[elsewhere]} API type, and this fault hits only ${hits} answers`;
  const candidates = [...new Set(apis.flatMap(typesOf))];
  const words = [...new Set(apis.filter((api) => api !== 'page').map((api) => API_WORDS[api]))].join(' or ');
  const suggestion = suggestName(type, candidates);
  return `--type ${shown} is no ${words} API type${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}, so the fault would never fire`;
}

/** The spec, or one sentence saying what is wrong: spec.ts's rules, then the types. */
export function checkFaultInput(input: FaultInput): FaultSpec | { error: string } {
  const spec = parseFaultSpec(input, suggestName);
  if ('error' in spec) return spec;
  const apis = spec.apis ?? kindInfo(spec.kind).apis;
  for (const type of spec.types ?? []) {
    const error = typeError(type, apis);
    if (error !== undefined) return { error };
  }
  return spec;
}
