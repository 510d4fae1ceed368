/**
 * `kactl sandbox start --seed FILE`: the state file is applied to the new sandbox before the
 * sandbox reports ready, through the seller API like any apply. A file that cannot be applied
 * stops the start (the caller closes the sandbox).
 */
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import { readFileSync } from 'node:fs';
import { readStateFile, applyState } from './apply.js';

export async function seedSandbox(ctx: Context, info: SandboxInfo, file: string): Promise<void> {
  const state = await readStateFile(ctx, file);
  const { SellerApi } = await import('../../api/seller-api.js');
  // An HTTPS sandbox is reached trusting its own authority, as its profile (not saved yet) will.
  const own = info.caFile === undefined ? undefined : new (await import('../../api/transport.js')).Transport({ ca: readFileSync(info.caFile, 'utf8'), signal: ctx.signal });
  const api = new SellerApi({
    baseUrl: info.baseUrl,
    sellerKey: info.sellerKey,
    // The sandbox is ours and fresh: its own limit (if on) is what pacing would guard against.
    ratePerMinute: 0,
    transport: own ?? (await ctx.transport()),
    warn: (line: string) => ctx.output.warn(line),
    now: ctx.now,
    signal: ctx.signal,
  });
  try {
    const { changed } = await applyState(ctx, api, state, { source: file, quiet: true, resume: `kactl apply -f ${file}`, ownApi: true });
    ctx.output.note(`Seeded from ${file}: ${changed} change${changed === 1 ? '' : 's'}.`);
  } finally {
    await own?.close();
  }
}
