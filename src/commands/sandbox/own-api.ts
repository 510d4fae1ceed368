/**
 * The HTTP side of a sandbox this process has just started, for what kactl does to its own
 * sandbox around others' use of it: `--seed` (sandbox start and exec), and `sandbox exec`'s
 * export and refused-request summary. Unpaced (the sandbox is ours, and its own limit is what
 * pacing would guard against), on a transport of its own that trusts an HTTPS sandbox's
 * authority (no profile says so yet, or ever, for exec), and told the sandbox's clock from its
 * `x-sandbox-now` header, so time left is counted by the sandbox's clock as every other command
 * counts it.
 */
import type { Context } from '../../context.js';
import { SellerApi } from '../../api/seller-api.js';
import type { Transport } from '../../api/transport.js';
import type { SandboxInfo } from '../../server/start.js';
import { readFileSync } from 'node:fs';

export interface OwnSandboxApi {
  readonly api: SellerApi;
  readonly transport: Transport;
  /** The sandbox's "now" in ms, once it has answered (before that, ours). */
  now(): number;
  close(): Promise<void>;
}

/** `signal` aborts the calls: Ctrl-C for a seed; a fresh one for what exec does after Ctrl-C. */
export async function ownSellerApi(ctx: Context, info: SandboxInfo, signal: AbortSignal): Promise<OwnSandboxApi> {
  const { Transport } = await import('../../api/transport.js');
  const ca = info.caFile === undefined ? undefined : readFileSync(info.caFile, 'utf8');
  let offsetMs = 0;
  const transport = new Transport({
    ...(ca === undefined ? {} : { ca }),
    signal,
    onSandboxNow: (seconds: number) => {
      offsetMs = seconds * 1000 - ctx.now();
    },
    ...(ctx.globals.verbose ? { verbose: (line: string) => ctx.verbose(line) } : {}),
  });
  const api = new SellerApi({
    baseUrl: info.baseUrl,
    sellerKey: info.sellerKey,
    ratePerMinute: 0,
    transport,
    warn: (line: string) => ctx.output.warn(line),
    now: ctx.now,
    signal,
  });
  return { api, transport, now: () => ctx.now() + offsetMs, close: () => transport.close() };
}
