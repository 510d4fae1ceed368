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
 * type error. The declaration is held against the catalog's entry for `type` (once per type and
 * declaration): a name the catalog does not list as required cannot be declared required, and
 * a name it does not list at all cannot be declared, so the types cannot promise more than the
 * check guarantees. Numbers and flags keep their readers in params.ts (`numberParam`, `flagParam`).
 */
import { wireParamsForType } from '../../api/seller-catalog/index.js';
import type { Params } from '../dispatch/params.js';

/** What a handler reads: required names (checked present) and optional ones. */
export interface ParamNames<R extends string, O extends string> {
  readonly required?: readonly R[];
  readonly optional?: readonly O[];
}

/** The values of the declared names; nothing else can be asked for. */
export type CheckedParams<R extends string = never, O extends string = never> = { readonly [K in R]: string } & {
  readonly [K in O]: string | undefined;
};

/** Declarations already held against the catalog, as `type|required|optional` (a small, fixed set). */
const verified = new Set<string>();

/** Throws when `names` promises what the catalog's check for `type` does not guarantee. */
function verifyAgainstCatalog(type: string, names: ParamNames<string, string>): void {
  const key = `${type}|${(names.required ?? []).join(',')}|${(names.optional ?? []).join(',')}`;
  if (verified.has(key)) return;
  const specs = wireParamsForType(type);
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
export function checkedParams<const R extends string = never, const O extends string = never>(
  params: Params,
  type: string,
  names: ParamNames<R, O>,
): CheckedParams<R, O> {
  verifyAgainstCatalog(type, names);
  const values: Record<string, string | undefined> = {};
  for (const name of names.required ?? []) {
    const value = params.get(name);
    if (value === undefined) throw new Error(`Seller handler ${type} reached without its parameter check (${name} missing)`);
    values[name] = value;
  }
  for (const name of names.optional ?? []) values[name] = params.get(name);
  return values as CheckedParams<R, O>;
}
