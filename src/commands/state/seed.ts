/**
 * `kactl sandbox start --seed FILE` (and `sandbox exec --seed FILE`): the state file is applied
 * to the new sandbox before the sandbox reports ready, through the seller API like any apply. A
 * file that cannot be applied stops the start (the caller closes the sandbox).
 */
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import { readStateFile, applyState } from './apply.js';
import { ownSellerApi } from '../sandbox/own-api.js';

export async function seedSandbox(ctx: Context, info: SandboxInfo, file: string): Promise<void> {
  const state = await readStateFile(ctx, file);
  const own = await ownSellerApi(ctx, info, ctx.signal);
  try {
    const { changed } = await applyState(ctx, own.api, state, { source: file, quiet: true, resume: `kactl apply -f ${file}`, ownApi: true });
    ctx.output.note(`Seeded from ${file}: ${changed} change${changed === 1 ? '' : 's'}.`);
  } finally {
    await own.close();
  }
}
