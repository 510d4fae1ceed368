/**
 * The profile that points kactl at a running sandbox: what `kactl sandbox start` saves as
 * "sandbox", and what the demo saves for its in-process sandbox.
 */
import type { ProfileData } from '../../config/types.js';
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import { listSandboxes, type SandboxEntry } from './registry.js';

export const SANDBOX_PROFILE = 'sandbox';

/** Seller calls a sandbox allows per minute when its rate limit is on. */
const SANDBOX_SELLER_RATE = 120;

export function sandboxProfileFields(info: SandboxInfo, options: { rateLimited: boolean }): ProfileData {
  return {
    baseUrl: info.baseUrl,
    appName: info.app.name,
    ownerid: info.app.ownerid,
    appVersion: info.app.version,
    sellerKey: info.sellerKey,
    publicKey: info.publicKey,
    secret: info.app.secret,
    adminToken: info.adminToken,
    // HTTPS: the profile trusts this sandbox's authority (and only it); over HTTP an earlier
    // HTTPS sandbox's authority is dropped (undefined removes the field).
    caFile: info.caFile,
    // Without the server's limit there is nothing to pace for.
    sellerRate: options.rateLimited ? SANDBOX_SELLER_RATE : 0,
  };
}

/**
 * An automatically named profile (`sandbox-<port>`) dies with its sandbox, unless someone has
 * pointed it elsewhere meanwhile.
 */
export async function forgetAutoProfile(ctx: Context, entry: SandboxEntry): Promise<void> {
  const { profile: name, baseUrl } = entry;
  if (!entry.autoProfile || !name) return;
  const store = await ctx.config();
  store.update((config) => {
    if (config.profiles[name]?.baseUrl !== baseUrl) return;
    delete config.profiles[name];
    if (config.active === name) delete config.active;
  });
}

/**
 * The running sandboxes. One that died without cleaning up (SIGKILL, a reboot) loses its entry
 * here, and its automatic profile with it, so no `sandbox-<port>` is left pointing at nothing.
 */
export async function runningSandboxes(ctx: Context): Promise<SandboxEntry[]> {
  const dead: SandboxEntry[] = [];
  const running = listSandboxes(ctx.dataDir, (entry) => dead.push(entry));
  for (const entry of dead) await forgetAutoProfile(ctx, entry);
  return running;
}
