/**
 * The generic runner of a catalog operation: the guard its effect calls for (y/N for one
 * record, typed app name + backup for many, nothing for reads and writes), `--dry-run`, the
 * call with the catalog's retry and empty-list rules, and the printing of the answer.
 */
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { guardBulk, guardDeleteOne } from './guard.js';
import { printDryRun } from './dry-run.js';
import { renderAnswer } from './render.js';
import type { ListChoice } from './render.js';
import { responseOptions } from '../../api/seller-call-options.js';

export interface RunOptions {
  /** Print the request and send nothing. */
  dryRun: boolean;
  /** Back up before a bulk change (false with `--no-backup`). */
  backup: boolean;
  /** `--columns` / `--limit` of a list command. */
  list?: ListChoice;
}

export async function runOp(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, options: RunOptions): Promise<void> {
  if (options.dryRun) {
    await printDryRun(ctx, op, [params], { backup: options.backup });
    return;
  }
  if (op.effect === 'delete-one') await guardDeleteOne(ctx, op, params);
  if (op.effect === 'bulk') await guardBulk(ctx, op, params, { backup: options.backup });

  const api = await ctx.sellerApi();
  // With --json a failure is printed by main, in the one error shape every command uses.
  const body = await api.call(op.type, params, { effect: op.effect, ...responseOptions(op) });
  await renderAnswer(ctx, op, body, options.list);
}
