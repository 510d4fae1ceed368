/**
 * The seller command groups (`kactl app`, `kactl licenses`, …), made from the seller catalog:
 * one group per catalog group, one command per command path (build-group.ts, build-verb.ts).
 * What runs is in run-verb.ts and the modules it loads; `kactl seller call` is call.ts.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SELLER_GROUP_ORDER } from '../../api/seller-catalog/index.js';
import type { Registration } from '../registration.js';
import { addSellerGroup } from './build-group.js';

export function registerSellerGroups(program: Command, ctx: Context, { words }: Registration): void {
  // Building the 15 groups' ~120 verbs is most of a seller command's start: build the named
  // group, and in it the verb the command line names (all of them for the group's help).
  for (const group of SELLER_GROUP_ORDER) {
    if (words === undefined) addSellerGroup(program, ctx, group);
    else if (group === words[0]) addSellerGroup(program, ctx, group, words[1]);
  }
}
