/**
 * Typed reading of parameters the catalog's check (params.ts) has already passed.
 *
 * Every seller handler runs behind `checkSellerParams`, so a required parameter is present and
 * non-empty by the time the handler reads it. A handler says which names it reads:
 *
 *   const p = checkedParams(params, 'editvar', { required: ['varid', 'data'] });
 *   p.varid   // string: no `?? ''` fallback
 *   p.note    // type error: not declared
 *
 * Required names are typed `string`, optional ones `string | undefined`, and any other name is a
 * type error. A name also listed in `numbers` comes back as a number (the catalog's `integer` or
 * `number`, which the check has validated), one in `flags` as a boolean (`bool01` or `booltext`,
 * read by boolean-words.ts). The declaration is held against the catalog's entry for `type` (once per
 * type and declaration): a name the catalog does not list as required cannot be declared
 * required, a name it does not list at all cannot be declared, and a number or flag must have
 * that kind there, so the types cannot promise more than the check guarantees.
 */
import { wireParamsForType, type ParamType } from '../../api/seller-catalog/index.js';
import type { Params } from '../dispatch/params.js';
import { parseBooleanWord } from './boolean-words.js';

/** What a handler reads: required names (checked present) and optional ones; which are numbers or flags. */
export interface ParamNames<R extends string, O extends string, N extends string = never, F extends string = never> {
  readonly required?: readonly R[];
  readonly optional?: readonly O[];
  readonly numbers?: readonly N[];
  readonly flags?: readonly F[];
}

/** A value of kind number (`N`), flag (`F`) or text. */
type ValueOf<K, N, F> = K extends N ? number : K extends F ? boolean : string;

/** The values of the declared names; nothing else can be asked for. */
export type CheckedParams<R extends string = never, O extends string = never, N extends string = never, F extends string = never> = {
  readonly [K in R]: ValueOf<K, N, F>;
} & {
  readonly [K in O]: ValueOf<K, N, F> | undefined;
};

/** Declarations already held against the catalog, as `type|required|optional` (a small, fixed set). */
const verified = new Set<string>();

const NUMBER_TYPES: readonly ParamType[] = ['integer', 'number'];
const FLAG_TYPES: readonly ParamType[] = ['bool01', 'booltext'];

/** Throws when `names` promises what the catalog's check for `type` does not guarantee. */
function verifyAgainstCatalog(type: string, names: ParamNames<string, string, string, string>): void {
  const lists = [names.required, names.optional, names.numbers, names.flags].map((list) => (list ?? []).join(','));
  const key = `${type}|${lists.join('|')}`;
  if (verified.has(key)) return;
  const specs = wireParamsForType(type);
  const declared = [...(names.required ?? []), ...(names.optional ?? [])];
  for (const [list, kinds, kind] of [[names.numbers, NUMBER_TYPES, 'a number'], [names.flags, FLAG_TYPES, 'a flag']] as const) {
    for (const name of list ?? []) {
      const spec = specs.find((s) => s.wire === name);
      if (!declared.includes(name) || spec === undefined || !kinds.includes(spec.type)) {
        throw new Error(`Seller handler ${type} reads ${name} as ${kind}; it must be declared and be ${kind} in the catalog`);
      }
    }
  }
  for (const name of names.required ?? []) {
    if (!specs.some((spec) => spec.wire === name && spec.required)) {
      throw new Error(`Seller handler ${type} declares ${name} required; the catalog does not check it as required`);
    }
  }
  for (const name of names.optional ?? []) {
    if (!specs.some((spec) => spec.wire === name && !spec.required)) {
      throw new Error(`Seller handler ${type} declares ${name} optional; the catalog lists no optional parameter of that name`);
    }
  }
  verified.add(key);
}

/**
 * The declared parameters of a request the catalog check passed for `type`. Declare `names`
 * as a literal (or a module constant) so the names are typed; a required name missing at run
 * time means the handler was reached without the check, which is a bug, not bad input.
 */
export function checkedParams<
  const R extends string = never,
  const O extends string = never,
  const N extends R | O = never,
  const F extends R | O = never,
>(params: Params, type: string, names: ParamNames<R, O, N, F>): CheckedParams<R, O, N, F> {
  verifyAgainstCatalog(type, names);
  const values: Record<string, string | number | boolean | undefined> = {};
  const read = (name: string): string | number | boolean | undefined => {
    const value = params.get(name);
    if (value === undefined) return undefined;
    if ((names.numbers as readonly string[] | undefined)?.includes(name)) return Number(value);
    if ((names.flags as readonly string[] | undefined)?.includes(name)) return parseBooleanWord(value) === true;
    return value;
  };
  for (const name of names.required ?? []) {
    const value = read(name);
    if (value === undefined) throw new Error(`Seller handler ${type} reached without its parameter check (${name} missing)`);
    values[name] = value;
  }
  for (const name of names.optional ?? []) values[name] = read(name);
  return values as CheckedParams<R, O, N, F>;
}
