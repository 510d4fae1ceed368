/**
 * Where shell completion finds the values of an argument or an option's value, declared on the
 * commander Argument or Option itself where the command declares it:
 *
 *   .addArgument(completeFrom(new Argument('<name>', 'profile name'), PROFILE_NAMES))
 *
 * candidates.ts reads it back (`valueSourceOf`). The seller commands built from the catalog say
 * the same with their parameters' `completeFrom`. Nothing here loads anything: command files
 * import it at registration, which cold start pays for.
 */
import type { Argument, Option } from 'commander';
import type { Context } from '../../context.js';

export type ValueSource =
  /** The profiles of the config file. */
  | { readonly kind: 'profiles' }
  /** The running sandboxes, by the profile each saved (by pid when it saved none). */
  | { readonly kind: 'sandboxes' }
  /**
   * A seller API list (its wire type), through the one completion request (live-values.ts):
   * `field` of each record (default: the list's first column). `secret` values (license keys,
   * session ids) are offered but never kept in the completion cache on disk.
   */
  | { readonly kind: 'seller-list'; readonly list: string; readonly field?: string; readonly secret?: boolean }
  /** Names kactl itself knows (operation types, SDKs), loaded only when asked. */
  | { readonly kind: 'names'; readonly names: (ctx: Context) => Promise<readonly string[]> };

export const PROFILE_NAMES: ValueSource = { kind: 'profiles' };
export const RUNNING_SANDBOXES: ValueSource = { kind: 'sandboxes' };

const SOURCE = Symbol('kactl.valueSource');

/** Declares where completion finds `target`'s values; returns `target`, for chaining. */
export function completeFrom<T extends Argument | Option>(target: T, source: ValueSource): T {
  Object.defineProperty(target, SOURCE, { value: source });
  return target;
}

export function valueSourceOf(target: Argument | Option | undefined): ValueSource | undefined {
  return (target as { [SOURCE]?: ValueSource } | undefined)?.[SOURCE];
}
