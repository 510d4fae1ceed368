/**
 * The seller command groups (`kactl app`, `kactl licenses`, …), made from the seller catalog.
 * Owned by the seller-commands work; registers nothing until that lands.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerSellerGroups(_program: Command, _ctx: Context): void {}
