/**
 * The checks `kactl doctor` runs, in order, each one result line: this machine first
 * (local-checks.ts), then the server. Later checks that need an
 * earlier one (the server must answer before its key can be judged) are skipped, not failed,
 * when it failed. Nothing is changed: init's session is not kept, no profile is written.
 */
import type { Context } from '../../context.js';
import { KactlError } from '../../errors.js';
import type { TransportResponse } from '../../api/transport.js';
import { stripControl } from '../../io/format.js';
import { describeShape, shapeOf } from './probe.js';
import { checkFreeSpace, checkNativeModule, checkPermissions, checkWritable } from './local-checks.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

/** Oldest Node kactl supports (package.json engines). */
const NODE_MINIMUM = [20, 19] as const;
/** Node majors past their end of life, and when it came. */
const NODE_END_OF_LIFE: Readonly<Record<number, string>> = { 20: '2026-04-30' };

const pass = (check: string, detail: string): CheckResult => ({ check, status: 'pass', detail });
const fail = (check: string, detail: string): CheckResult => ({ check, status: 'fail', detail });
const skip = (check: string, detail: string): CheckResult => ({ check, status: 'skip', detail });

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < NODE_MINIMUM[0] || (major === NODE_MINIMUM[0] && minor < NODE_MINIMUM[1])) {
    return fail('node', `Node ${version} is older than ${NODE_MINIMUM.join('.')}, the oldest kactl supports`);
  }
  const eol = NODE_END_OF_LIFE[major];
  return pass('node', eol ? `Node ${version} (works, but Node ${major} reached its end of life on ${eol}; Node 22 or 24 is maintained)` : `Node ${version}`);
}

/** Everything doctor reports, in order. Details quote servers (a page title, a refusal): never raw control characters. */
export async function runChecks(ctx: Context): Promise<CheckResult[]> {
  return (await collectChecks(ctx)).map((result) => ({ ...result, detail: stripControl(result.detail) }));
}

async function collectChecks(ctx: Context): Promise<CheckResult[]> {
  const results: CheckResult[] = [
    checkNode(ctx.runtime.node),
    await checkNativeModule(ctx.runtime.node),
    checkPermissions(ctx.configDir, ctx.dataDir),
    checkWritable('config folder', ctx.configDir, 'KACTL_CONFIG_DIR'),
    checkWritable('data folder', ctx.dataDir, 'KACTL_DATA_DIR'),
    checkFreeSpace(ctx.dataDir),
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
  const transport = await ctx.transport();
  const base = baseUrl.replace(/\/+$/, '');
  const sellerKey = settings.sellerKey.value;
  const get = (url: string): Promise<TransportResponse> => transport.request({ method: 'GET', url, secrets: [sellerKey] });

  try {
    const root = await get(`${base}/`);
    results.push(pass('reachable', `${base} answered HTTP ${root.status} in ${Math.round(root.elapsedMs)} ms`));
  } catch (error) {
    results.push(fail('reachable', `${base}: ${messageOf(error)}`));
    return results;
  }

  const sellerUrl = `${base}/api/seller/?${new URLSearchParams({ sellerkey: sellerKey ?? '', type: 'fetchallsubs' }).toString()}`;
  let sellerPathOk = false;
  try {
    const answer = await get(sellerUrl);
    const shape = shapeOf(answer);
    sellerPathOk = shape.kind === 'json' && typeof shape.body.success === 'boolean';
    results.push(
      sellerPathOk
        ? pass('api path', `${base}/api/seller/ answers the API's JSON`)
        : fail('api path', `${base}/api/seller/ answered ${describeShape(shape, answer.status)}; is ${base} the server's base URL (no /api/... path)?`),
    );
  } catch (error) {
    results.push(fail('api path', messageOf(error)));
  }

  if (sellerKey === undefined) results.push(skip('seller key', 'no seller key is configured'));
  else if (!sellerPathOk) results.push(skip('seller key', 'the seller API did not answer'));
  else {
    try {
      const api = await ctx.sellerApi({ onWait: () => undefined });
      await api.call('fetchallsubs', {}, { effect: 'read', list: { key: 'subs', emptyMessage: 'No subscriptions found' } });
      results.push(pass('seller key', 'accepted'));
    } catch (error) {
      results.push(fail('seller key', error instanceof KactlError && error.code === 'AUTH' ? `refused: ${error.message}` : messageOf(error)));
    }
  }

  results.push(...(await clientChecks(ctx, base, get)));
  return results;
}

/** init on the client API 1.3: app accepted, signature by the profile's key, clock skew. */
async function clientChecks(ctx: Context, base: string, get: (url: string) => Promise<TransportResponse>): Promise<CheckResult[]> {
  const settings = await ctx.settings();
  const appName = settings.appName.value;
  const ownerid = settings.ownerid.value;
  if (appName === undefined || ownerid === undefined) {
    const why = 'no application name and owner id are configured';
    return [skip('client app', why), skip('signature', why), skip('clock', why)];
  }
  const { randomBytes } = await import('node:crypto');
  const query = new URLSearchParams({ type: 'init', name: appName, ownerid, enckey: randomBytes(8).toString('hex') });
  if (settings.appVersion.value) query.set('ver', settings.appVersion.value);
  let answer: TransportResponse;
  try {
    answer = await get(`${base}/api/1.3/?${query.toString()}`);
  } catch (error) {
    const why = messageOf(error);
    return [fail('client app', why), skip('signature', 'init did not answer'), skip('clock', 'init did not answer')];
  }
  const results: CheckResult[] = [];
  const shape = shapeOf(answer);
  if (shape.kind !== 'json') results.push(fail('client app', `init on ${base}/api/1.3/ answered ${describeShape(shape, answer.status)}`));
  else if (shape.body.success === true) results.push(pass('client app', `init accepted "${appName}" (the session is not kept)`));
  else results.push(fail('client app', `init refused "${appName}": ${typeof shape.body.message === 'string' ? shape.body.message : 'no message'}`));

  const stamp = answer.headers['x-signature-timestamp'];
  const publicKey = settings.publicKey.value;
  if (publicKey === undefined) results.push(skip('signature', 'no public key is configured (--public-key, KACTL_PUBLIC_KEY or the profile)'));
  else if (stamp === undefined) results.push(fail('signature', 'the init answer is not signed'));
  else {
    try {
      const { verifyEd25519 } = await import('../../api/verify.js');
      // Any timestamp passes here: the clock line below judges it on its own.
      verifyEd25519({ headers: answer.headers, body: answer.body, publicKey, nowMs: Number(stamp) * 1000 });
      results.push(pass('signature', "the init answer verifies with the profile's public key"));
    } catch (error) {
      results.push(fail('signature', messageOf(error)));
    }
  }

  if (stamp === undefined || !/^\d+$/.test(stamp)) results.push(skip('clock', 'the answer carries no signature timestamp'));
  else {
    const skew = Math.round(ctx.now() / 1000 - Number(stamp));
    const window = settings.signatureWindow.value;
    const text = skew === 0 ? 'this computer and the server agree to the second' : `this computer is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server`;
    results.push(Math.abs(skew) <= window ? pass('clock', text) : fail('clock', `${text}; answers older than ${window} s are refused`));
  }
  return results;
}
