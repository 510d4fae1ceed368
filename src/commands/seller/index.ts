/**
 * The seller command groups (`kactl app`, `kactl licenses`, …), made from the seller catalog:
 * one group per catalog group, one command per command path (build-group.ts, build-verb.ts).
 * What runs is in run-verb.ts and the modules it loads; `kactl seller call` is call.ts.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SELLER_GROUP_ORDER } from '../../api/seller-catalog/index.js';
import { addSellerGroup } from './build-group.js';

export function registerSellerGroups(program: Command, ctx: Context, only?: string): void {
  // Building the 15 groups' ~120 verbs is most of a seller command's start: build the named one.
  for (const group of SELLER_GROUP_ORDER) if (only === undefined || group === only) addSellerGroup(program, ctx, group);
}
