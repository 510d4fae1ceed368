/**
 * The checks of a server and what a profile says about it, the way the profile will use it: it
 * answers at all, the client API answers at the base URL on the profile's API version (1.3, or
 * 1.2 for a profile that says so: the open-source server has no 1.3), the seller key is accepted
 * (only when one is given: a server without a seller API is fine for a profile without a key),
 * the app's init is accepted, that answer is signed by the public key (1.3) or the app secret
 * (1.2), and (for doctor) the clocks agree. A check that needs an earlier one, or a value that
 * was not given, is skipped, not failed, and says why. `kactl doctor` runs them on the settings
 * in use, `kactl profile add` on the profile it is about to save. Nothing is changed: init's
 * session is not kept.
 */
import { KactlError } from '../../errors.js';
import type { Transport, TransportResponse } from '../../api/transport.js';
import type { ResolvedSettings } from '../../config/settings.js';
import type { SellerApi } from '../../api/seller-api.js';
import { clientChecks, type ClientProbe } from './client-checks.js';
import { describeShape, shapeOf } from './probe.js';
import { fail, messageOf, pass, skip, type CheckResult, type ServerCheckOptions } from './results.js';

/** The server and the values to check against it, and how to reach it. */
export interface ServerTarget {
  /** The base URL in use (present: the caller has made sure). */
  readonly baseUrl: string;
  /** Where the seller key, app, version, API version, keys and signature window come from. */
  readonly settings: ResolvedSettings;
  /** The transport the target is reached with (its timeout, its trusted authority). */
  readonly transport: Transport;
  /** One read with the seller key through the seller API caller; throws as any call would. */
  trySellerKey(): Promise<void>;
  /** This computer's clock, ms. */
  now(): number;
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

function probeOf(target: ServerTarget): ClientProbe & { readonly sellerKey: string | undefined } {
  const { settings } = target;
  const sellerKey = settings.sellerKey.value;
  return {
    sellerKey,
    base: target.baseUrl.replace(/\/+$/, ''),
    api: settings.api.value ?? '1.3',
    settings,
    transport: target.transport,
    get: (url) => target.transport.request({ method: 'GET', url, secrets: [sellerKey] }),
    now: () => target.now(),
  };
}

export async function serverChecks(target: ServerTarget, options: ServerCheckOptions): Promise<CheckResult[]> {
  const probe = probeOf(target);
  const { base } = probe;
  let reachable: CheckResult;
  try {
    const root = await probe.get(`${base}/`);
    reachable = pass('reachable', reachableDetail(base, root.status, Math.round(root.elapsedMs)));
  } catch (error) {
    return [fail('reachable', `${base}: ${messageOf(error)}`, 'NETWORK')];
  }
  const apiPath = await checkApiPath(probe);
  const apiFound = apiPath.status === 'pass';
  const sellerKey = apiFound ? await checkSellerKey(target, probe, options) : skip('seller key', `the client API ${probe.api} did not answer at the base URL`);
  return [reachable, apiPath, sellerKey, ...(await clientChecks(probe, apiFound, options))];
}

/**
 * Whether an answer is a KeyAuth-style API's: a JSON object with a boolean `success`, or the bare
 * `KeyAuth_Invalid` the client API answers for an app it does not know. A server's answer to a
 * path it has no route for (a kactl sandbox's is JSON too) is none.
 */
function apiAnswer(answer: TransportResponse): { ok: boolean; what: string } {
  const shape = shapeOf(answer);
  const message = shape.kind === 'json' && typeof shape.body.message === 'string' ? shape.body.message : undefined;
  const noRoute = answer.status === 404 && message !== undefined && /^not found\.?$/i.test(message);
  if (noRoute) return { ok: false, what: `HTTP 404 "${message}" (no such path)` };
  if (shape.kind === 'json' && typeof shape.body.success === 'boolean') return { ok: true, what: '' };
  if (shape.kind === 'other' && answer.body.toString('utf8').trim() === 'KeyAuth_Invalid') return { ok: true, what: '' };
  return { ok: false, what: describeShape(shape, answer.status) };
}

/** The client API answers at `<base>/api/<version>/` (an init naming no app, sent as the profile sends calls). */
async function checkApiPath(probe: ClientProbe): Promise<CheckResult> {
  const path = `${probe.base}/api/${probe.api}/`;
  const asGet = probe.api === '1.3' && probe.settings.method.value === 'get';
  const form = new URLSearchParams({ type: 'init', name: '', ownerid: '' });
  try {
    const answer = asGet
      ? await probe.get(`${path}?${form.toString()}`)
      : await probe.transport.request({ method: 'POST', url: path, form, secrets: [] });
    const { ok, what } = apiAnswer(answer);
    if (ok) return pass('api path', `${path} answers as a KeyAuth-style client API ${probe.api} does`);
    const version = probe.api === '1.3' ? ' (a server with only API 1.2, as the open-source one, needs --api 1.2)' : '';
    return fail('api path', `${path} answered ${what}; is ${probe.base} the server's base URL (no /api/... path)${version}?`, 'NETWORK');
  } catch (error) {
    return fail('api path', messageOf(error), 'NETWORK');
  }
}

/** The seller key, when one is given: the seller API must answer at `<base>/api/seller/`, and accept it. */
async function checkSellerKey(target: ServerTarget, probe: ClientProbe & { readonly sellerKey: string | undefined }, options: ServerCheckOptions): Promise<CheckResult> {
  if (probe.sellerKey === undefined) return skip('seller key', `${options.missing.sellerKey}: the seller API was not checked`);
  const sellerUrl = `${probe.base}/api/seller/?${new URLSearchParams({ sellerkey: probe.sellerKey, type: 'fetchallsubs' }).toString()}`;
  try {
    const { ok, what } = apiAnswer(await probe.get(sellerUrl));
    if (!ok) return fail('seller key', `${probe.base}/api/seller/ answered ${what}: this server has no seller API there, so the key cannot be used`, 'NETWORK');
    await target.trySellerKey();
    return pass('seller key', 'accepted');
  } catch (error) {
    const refused = error instanceof KactlError && error.code === 'AUTH';
    return fail('seller key', refused ? `refused: ${error.message}` : messageOf(error), error instanceof KactlError ? error.code : 'NETWORK');
  }
}
