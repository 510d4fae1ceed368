/**
 * Where flows run: an in-process sandbox of their own (port 0, in-memory store, no rate limit),
 * or, with `--base-url` or a profile, the server those settings name. Each flow gets a fresh
 * config folder holding one profile, so each starts with no client session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import type { EnvRecord } from '../env.js';
import type { ProfileData } from '../config/types.js';

export interface Target {
  profile: ProfileData;
  /** True for a sandbox started for this file. */
  own: boolean;
  close(): Promise<void>;
}

export const FLOW_PROFILE = 'flow';

/** True when the command line or environment names a server to test against. */
export function wantsExternal(ctx: Context): boolean {
  return ctx.globals.baseUrl !== undefined || ctx.globals.profile !== undefined || (ctx.env.KACTL_PROFILE ?? '') !== '' || (ctx.env.KACTL_BASE_URL ?? '') !== '';
}

export async function openTarget(ctx: Context): Promise<Target> {
  if (wantsExternal(ctx)) {
    const settings = await ctx.settings();
    const profile: ProfileData = { ...(settings.profile.value === undefined ? {} : (await ctx.config()).read().profiles[settings.profile.value]) };
    for (const key of ['baseUrl', 'appName', 'ownerid', 'appVersion', 'sellerKey', 'publicKey', 'secret', 'hwid', 'signatures'] as const) {
      const value = settings[key].value;
      if (value !== undefined) (profile as Record<string, unknown>)[key] = value;
    }
    // `kactl test --no-verify`: the steps' kactl runs take answers unchecked too (each warns).
    if (!ctx.globals.verify) profile.signatures = 'skip';
    delete profile.session;
    return { profile, own: false, close: async () => undefined };
  }
  const { startSandbox } = await import('../server/start.js');
  const { sandboxProfileFields } = await import('../config/sandbox-profile.js');
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', rateLimit: false });
  return { profile: sandboxProfileFields(sandbox.info, { rateLimited: false }), own: true, close: () => sandbox.close() };
}

/** A fresh config folder with the target's profile active, and the environment steps run with. */
export async function flowFolder(ctx: Context, target: Target): Promise<{ env: EnvRecord; dispose(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-flow-'));
  const { ConfigStore } = await import('../config/store.js');
  new ConfigStore(dir).update((config) => {
    config.profiles[FLOW_PROFILE] = { ...target.profile };
    config.active = FLOW_PROFILE;
  });
  // The user's variables stay (a seed file may read them with !env); kactl's own settings come from the profile.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.env)) if (value !== undefined && !name.startsWith('KACTL_')) env[name] = value;
  Object.assign(env, { KACTL_CONFIG_DIR: dir, KACTL_DATA_DIR: path.join(dir, 'data'), NO_COLOR: '1' });
  return { env: env, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
