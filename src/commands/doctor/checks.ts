/**
 * The checks `kactl doctor` runs, in order, each one result line: this machine first
 * (local-checks.ts), then the server with the settings in use (server-checks.ts, which
 * `kactl profile add` runs too). Later checks that need an earlier one (the server must answer
 * before its key can be judged) are skipped, not failed, when it failed. Nothing is changed:
 * init's session is not kept, no profile is written.
 */
import type { Context } from '../../context.js';
import { stripControl } from '../../io/format.js';
import { checkAuthority } from './authority-check.js';
import { checkFreeSpace, checkNativeModule, checkPermissions, checkWritable } from './local-checks.js';
import { fail, messageOf, pass, type CheckResult } from './results.js';
import { probeSellerKey, serverChecks } from './server-checks.js';

export type { CheckResult, CheckStatus } from './results.js';

/** Oldest Node kactl supports (package.json engines). */
const NODE_MINIMUM = [20, 19] as const;
/** Node majors past their end of life, and when it came. */
const NODE_END_OF_LIFE: Readonly<Record<number, string>> = { 20: '2026-04-30' };


export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < NODE_MINIMUM[0] || (major === NODE_MINIMUM[0] && minor < NODE_MINIMUM[1])) {
    return fail('node', `Node ${version} is older than ${NODE_MINIMUM.join('.')}, the oldest kactl supports`);
  }
  const eol = NODE_END_OF_LIFE[major];
  return pass('node', eol ? `Node ${version} (works, but Node ${major} reached its end of life on ${eol}; Node 22, 24 and 26 are maintained)` : `Node ${version}`);
}

/** Everything doctor reports, in order. Details quote servers (a page title, a refusal): never raw control characters. */
export async function runChecks(ctx: Context): Promise<CheckResult[]> {
  return (await collectChecks(ctx)).map(({ check, status, detail }) => ({ check, status, detail: stripControl(detail) }));
}

async function collectChecks(ctx: Context): Promise<CheckResult[]> {
  const results: CheckResult[] = [
    checkNode(ctx.runtime.node),
    await checkNativeModule(ctx.runtime.node),
    checkPermissions(ctx.configDir, ctx.dataDir),
    checkWritable('config folder', ctx.configDir, 'KACTL_CONFIG_DIR'),
    checkWritable('data folder', ctx.dataDir, 'KACTL_DATA_DIR'),
    checkFreeSpace(ctx.dataDir),
    await checkAuthority(ctx.dataDir, ctx.now()),
  ];
  let settings;
  try {
    settings = await ctx.settings();
  } catch (error) {
    results.push(fail('profile', messageOf(error)));
    return results;
  }
  const baseUrl = settings.baseUrl.value;
  if (baseUrl === undefined) {
    results.push(fail('base url', 'no server base URL is configured (--base-url, KACTL_BASE_URL or a profile)'));
    return results;
  }
  results.push(
    ...(await serverChecks(
      {
        baseUrl,
        settings,
        transport: await ctx.transport(),
        trySellerKey: async () => probeSellerKey(await ctx.sellerApi({ onWait: () => undefined })),
        now: ctx.now,
      },
      {
        clock: true,
        missing: {
          sellerKey: 'no seller key is configured',
          app: 'no application name and owner id are configured',
          publicKey: 'no public key is configured (--public-key, KACTL_PUBLIC_KEY or the profile): client commands refuse to call the server without one unless --no-verify',
          secret: 'no app secret is configured (KACTL_APP_SECRET or the profile) to check API 1.2 signatures',
        },
      },
    )),
  );
  return results;
}
