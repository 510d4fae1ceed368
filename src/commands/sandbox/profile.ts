/**
 * The profiles `kactl sandbox start` saves (as "sandbox" or `sandbox-<port>`): which a sandbox
 * made, and when one dies with its sandbox. Their fields: config/sandbox-profile.ts.
 */
import { createHash } from 'node:crypto';
import type { ProfileData } from '../../config/types.js';
import type { Context } from '../../context.js';
import { listSandboxes, type SandboxEntry } from './registry.js';

export const SANDBOX_PROFILE = 'sandbox';

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
