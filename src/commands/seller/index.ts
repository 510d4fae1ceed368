/**
 * The seller command groups (`kactl app`, `kactl licenses`, …), made from the seller catalog:
 * one group per catalog group, one command per command path (build-group.ts, build-verb.ts).
 * What runs is in run-verb.ts and the modules it loads; `kactl seller call` is call.ts.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SELLER_GROUP_ORDER } from '../../api/seller-catalog/index.js';
import { addSellerGroup } from './build-group.js';

export function registerSellerGroups(program: Command, ctx: Context): void {
  for (const group of SELLER_GROUP_ORDER) addSellerGroup(program, ctx, group);
}
