/**
 * The checks of a server and what a profile says about it, in order: it answers at all, the API
 * answers at the base URL as a KeyAuth-style server would, the seller key is accepted, the
 * client app's init is accepted, that answer is signed by the public key, and (for doctor) the
 * clocks agree. A check that needs an earlier one is skipped, not failed, when that one failed.
 * `kactl doctor` runs them on the settings in use, `kactl profile add` on the profile it is about
 * to save. Nothing is changed: init's session is not kept.
 */
import { ExitCode, KactlError } from '../../errors.js';
import type { Transport, TransportResponse } from '../../api/transport.js';
import type { ResolvedSettings } from '../../config/settings.js';
import type { SellerApi } from '../../api/seller-api.js';
import { describeShape, shapeOf } from './probe.js';
import { fail, messageOf, pass, skip, type CheckResult } from './results.js';

/** The server and the values to check against it, and how to reach it. */
export interface ServerTarget {
  /** The base URL in use (present: the caller has made sure). */
  readonly baseUrl: string;
  /** Where the seller key, app, version, public key and signature window come from. */
  readonly settings: ResolvedSettings;
  /** The transport the target is reached with (its timeout, its trusted authority). */
  readonly transport: Transport;
  /** One read with the seller key through the seller API caller; throws as any call would. */
  trySellerKey(): Promise<void>;
  /** This computer's clock, ms. */
  now(): number;
}

export interface ServerCheckOptions {
  /** The clock check (doctor): a profile is not wrong because this computer's clock is. */
  readonly clock: boolean;
  /** The skip line's reason when a value is missing, in the caller's words (a setting, a flag). */
  readonly missing: { readonly sellerKey: string; readonly app: string; readonly publicKey: string };
}

/** The read a seller key is tried with: the subscriptions, a short list every app has. */
export async function probeSellerKey(api: SellerApi): Promise<void> {
  await api.call('fetchallsubs', {}, { effect: 'read', list: { key: 'subs', emptyMessage: 'No subscriptions found' } });
}


/** What answering at the root means: an API server's root answers 404, and that is fine. */
function reachableDetail(base: string, status: number, ms: number): string {
  const root = status === 404 ? 'HTTP 404 at its root, as an API server usually answers there' : `HTTP ${status} at its root`;
  return `the server at ${base} answers (${root}; ${ms} ms)`;
}

/** The values the checks read, and a GET through the target's transport (the seller key masked in `--verbose`). */
interface Probe {
  readonly sellerKey: string | undefined;
  readonly appName: string | undefined;
  readonly ownerid: string | undefined;
  readonly appVersion: string | undefined;
  readonly publicKey: string | undefined;
  readonly signatureWindow: number;
  get(url: string): Promise<TransportResponse>;
}

function probeOf(target: ServerTarget): Probe {
  const { settings } = target;
  const sellerKey = settings.sellerKey.value;
  return {
    sellerKey,
    appName: settings.appName.value,
    ownerid: settings.ownerid.value,
    appVersion: settings.appVersion.value,
    publicKey: settings.publicKey.value,
    signatureWindow: settings.signatureWindow.value,
    get: (url) => target.transport.request({ method: 'GET', url, secrets: [sellerKey] }),
  };
}

export async function serverChecks(target: ServerTarget, options: ServerCheckOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const probe = probeOf(target);
  const base = target.baseUrl.replace(/\/+$/, '');
  try {
    const root = await probe.get(`${base}/`);
    results.push(pass('reachable', reachableDetail(base, root.status, Math.round(root.elapsedMs))));
  } catch (error) {
    results.push(fail('reachable', `${base}: ${messageOf(error)}`, ExitCode.network));
    return results;
  }

  const sellerUrl = `${base}/api/seller/?${new URLSearchParams({ sellerkey: probe.sellerKey ?? '', type: 'fetchallsubs' }).toString()}`;
  let sellerPathOk = false;
  try {
    const answer = await probe.get(sellerUrl);
    const shape = shapeOf(answer);
    // A server's answer to a path it has no route for (a kactl sandbox's is JSON too) is no API.
    const message = shape.kind === 'json' && typeof shape.body.message === 'string' ? shape.body.message : undefined;
    const noRoute = answer.status === 404 && message !== undefined && /^not found\.?$/i.test(message);
    sellerPathOk = shape.kind === 'json' && typeof shape.body.success === 'boolean' && !noRoute;
    const what = noRoute ? `HTTP 404 "${message}" (no such path)` : describeShape(shape, answer.status);
    results.push(
      sellerPathOk
        ? pass('api path', `${base}/api/seller/ answers as a KeyAuth-style seller API does`)
        : fail('api path', `${base}/api/seller/ answered ${what}; is ${base} the server's base URL (no /api/... path)?`, ExitCode.network),
    );
  } catch (error) {
    results.push(fail('api path', messageOf(error), ExitCode.network));
  }

  if (probe.sellerKey === undefined) results.push(skip('seller key', options.missing.sellerKey));
  else if (!sellerPathOk) results.push(skip('seller key', 'the seller API did not answer'));
  else {
    try {
      await target.trySellerKey();
      results.push(pass('seller key', 'accepted'));
    } catch (error) {
      const refused = error instanceof KactlError && error.exitCode === ExitCode.auth;
      results.push(fail('seller key', refused ? `refused: ${error.message}` : messageOf(error), error instanceof KactlError ? error.exitCode : ExitCode.network));
    }
  }

  results.push(...(await clientChecks(probe, base, options, () => target.now())));
  return results;
}

/** init on the client API 1.3: app accepted, signature by the profile's key, clock skew. */
async function clientChecks(target: Probe, base: string, options: ServerCheckOptions, now: () => number): Promise<CheckResult[]> {
  const { appName, ownerid } = target;
  const clock = (result: CheckResult): CheckResult[] => (options.clock ? [result] : []);
  if (appName === undefined || ownerid === undefined) {
    const why = options.missing.app;
    return [skip('client app', why), skip('signature', why), ...clock(skip('clock', why))];
  }
  const { randomBytes } = await import('node:crypto');
  const query = new URLSearchParams({ type: 'init', name: appName, ownerid, enckey: randomBytes(8).toString('hex') });
  if (target.appVersion) query.set('ver', target.appVersion);
  let answer: TransportResponse;
  try {
    answer = await target.get(`${base}/api/1.3/?${query.toString()}`);
  } catch (error) {
    const why = messageOf(error);
    return [fail('client app', why, ExitCode.network), skip('signature', 'init did not answer'), ...clock(skip('clock', 'init did not answer'))];
  }
  const results: CheckResult[] = [];
  const shape = shapeOf(answer);
  if (shape.kind !== 'json') results.push(fail('client app', `init on ${base}/api/1.3/ answered ${describeShape(shape, answer.status)}`, ExitCode.network));
  else if (shape.body.success === true) results.push(pass('client app', `init accepted "${appName}" (the session is not kept)`));
  else results.push(fail('client app', `init refused "${appName}": ${typeof shape.body.message === 'string' ? shape.body.message : 'no message'}`, ExitCode.failure));

  const stamp = answer.headers['x-signature-timestamp'];
  const publicKey = target.publicKey;
  if (publicKey === undefined) results.push(skip('signature', options.missing.publicKey));
  else if (stamp === undefined) results.push(fail('signature', 'the init answer is not signed', ExitCode.signature));
  else {
    try {
      const { verifyEd25519 } = await import('../../api/verify.js');
      // Any timestamp passes here: the clock line judges it on its own.
      verifyEd25519({ headers: answer.headers, body: answer.body, publicKey, nowMs: Number(stamp) * 1000 });
      results.push(pass('signature', 'the init answer verifies with the public key'));
    } catch (error) {
      results.push(fail('signature', messageOf(error), ExitCode.signature));
    }
  }

  if (!options.clock) return results;
  if (stamp === undefined || !/^\d+$/.test(stamp)) results.push(skip('clock', 'the answer carries no signature timestamp'));
  else {
    const skew = Math.round(now() / 1000 - Number(stamp));
    const window = target.signatureWindow;
    const text = skew === 0 ? 'this computer and the server agree to the second' : `this computer is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server`;
    results.push(Math.abs(skew) <= window ? pass('clock', text) : fail('clock', `${text}; answers older than ${window} s are refused`));
  }
  return results;
}
