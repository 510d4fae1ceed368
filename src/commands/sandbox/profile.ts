/**
 * The profile that points kactl at a running sandbox: what `kactl sandbox start` saves as
 * "sandbox", and what the demo saves for its in-process sandbox.
 */
import { createHash } from 'node:crypto';
import type { ProfileData } from '../../config/types.js';
import type { Context } from '../../context.js';
import type { SandboxInfo } from '../../server/start.js';
import { listSandboxes, type SandboxEntry } from './registry.js';

export const SANDBOX_PROFILE = 'sandbox';

/** Seller calls a sandbox allows per minute when its rate limit is on. */
export const SANDBOX_SELLER_RATE = 120;

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
 * Whether a sandbox made this profile: only `kactl sandbox start` (and the demo, for its own
 * sandbox) saves an admin token, and no command lets a person set one. Such a profile may be
 * replaced by the next sandbox; any other needs `--force` (start.ts).
 */
export function isSandboxProfile(profile: ProfileData | undefined): boolean {
  return typeof profile?.adminToken === 'string' && profile.adminToken !== '';
}

/** What the registry keeps of a sandbox's admin token: its SHA-256, never the token itself. */
export function adminTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * An automatically named profile (`sandbox-<port>`) dies with its sandbox, but only while it is
 * still that sandbox's: same URL and the same admin token (compared by digest). A profile
 * someone has pointed elsewhere, or an entry that names a profile it never made, removes nothing.
 */
export async function forgetAutoProfile(ctx: Context, entry: SandboxEntry): Promise<void> {
  const { profile: name, baseUrl, adminTokenDigest: digest } = entry;
  if (!entry.autoProfile || !name || !digest) return;
  const store = await ctx.config();
  store.update((config) => {
    const profile = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
    if (profile === undefined || profile.baseUrl !== baseUrl || !isSandboxProfile(profile) || adminTokenDigest(profile.adminToken!) !== digest) return;
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
