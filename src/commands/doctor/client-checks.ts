/**
 * The client half of the server checks (server-checks.ts): the app's init on the profile's API
 * version, through the same client-API caller every client command uses (so an unknown app reads
 * as client commands say it, "No application named …"), then its signature, checked apart so
 * each line says one thing: Ed25519 by the public key on 1.3, HMAC by the app secret on 1.2.
 * Then, for doctor, the clock against the answer's timestamp (1.3 only: 1.2 answers carry none).
 */
import { KactlError } from '../../errors.js';
import { ClientApi, type ClientAnswer } from '../../api/client-api.js';
import { memorySessionStore } from '../../api/session.js';
import type { Transport, TransportResponse } from '../../api/transport.js';
import { verifyEd25519, verifyHmac } from '../../api/verify.js';
import type { ResolvedSettings } from '../../config/settings.js';
import { fail, messageOf, pass, skip, type CheckResult, type ServerCheckOptions } from './results.js';

/** The server as the checks reach it, and the settings they read. */
export interface ClientProbe {
  /** The base URL without a trailing slash. */
  readonly base: string;
  /** The client API version the profile uses (1.3 unless it says 1.2). */
  readonly api: '1.3' | '1.2';
  readonly settings: ResolvedSettings;
  readonly transport: Transport;
  /** A GET through the transport, the seller key masked in `--verbose`. */
  get(url: string): Promise<TransportResponse>;
  now(): number;
}

/** init accepted, its signature, the clock. `apiFound`: the api path check passed. */
export async function clientChecks(probe: ClientProbe, apiFound: boolean, options: ServerCheckOptions): Promise<CheckResult[]> {
  const { settings } = probe;
  const appName = settings.appName.value;
  const ownerid = settings.ownerid.value;
  const clock = (result: CheckResult): CheckResult[] => (options.clock ? [result] : []);
  const skipAll = (why: string): CheckResult[] => [skip('client app', why), skip('signature', why), ...clock(skip('clock', why))];
  if (appName === undefined || ownerid === undefined) return skipAll(options.missing.app);
  if (!apiFound) return skipAll(`the client API ${probe.api} did not answer at the base URL`);
  const client = new ClientApi({
    transport: probe.transport,
    warn: () => undefined,
    now: () => probe.now(),
    baseUrl: probe.base,
    appName,
    ownerid,
    appVersion: settings.appVersion.value ?? '',
    api: probe.api,
    method: settings.method.value,
    // Checked below, line by line; the session is thrown away.
    verify: false,
    session: memorySessionStore(),
  });
  let answer: ClientAnswer;
  try {
    answer = await client.request('init', {}, { acceptFailure: true });
  } catch (error) {
    const code = error instanceof KactlError ? error.code : 'NETWORK';
    return [fail('client app', messageOf(error).replace(/\.$/, ''), code), skip('signature', 'init did not answer'), ...clock(skip('clock', 'init did not answer'))];
  }
  const accepted = answer.body.success === true;
  const message = typeof answer.body.message === 'string' ? answer.body.message : 'no message';
  return [
    accepted ? pass('client app', `init on API ${probe.api} accepted "${appName}" (the session is not kept)`) : fail('client app', `init refused "${appName}": ${message}`, 'FAILURE'),
    signatureCheck(probe, answer, options),
    ...clock(clockCheck(probe, answer)),
  ];
}

/** The init answer's signature: Ed25519 by the public key (1.3), HMAC by the app secret (1.2). */
function signatureCheck(probe: ClientProbe, answer: ClientAnswer, options: ServerCheckOptions): CheckResult {
  const { settings } = probe;
  try {
    if (probe.api === '1.2') {
      const secret = settings.secret.value;
      if (secret === undefined) return skip('signature', options.missing.secret);
      verifyHmac({ headers: answer.headers, body: answer.raw, key: secret, enckeySent: true, keyLabel: 'the app secret' });
      return pass('signature', 'the init answer verifies with the app secret');
    }
    const publicKey = settings.publicKey.value;
    if (publicKey === undefined) return skip('signature', options.missing.publicKey);
    const stamp = answer.headers['x-signature-timestamp'];
    if (stamp === undefined) return fail('signature', 'the init answer is not signed', 'SIGNATURE');
    // Any timestamp passes here: the clock line judges it on its own.
    verifyEd25519({ headers: answer.headers, body: answer.raw, publicKey, nowMs: Number(stamp) * 1000 });
    return pass('signature', 'the init answer verifies with the public key');
  } catch (error) {
    return fail('signature', messageOf(error), 'SIGNATURE');
  }
}

function clockCheck(probe: ClientProbe, answer: ClientAnswer): CheckResult {
  const stamp = answer.headers['x-signature-timestamp'];
  if (probe.api === '1.2') return skip('clock', 'API 1.2 answers carry no timestamp');
  if (stamp === undefined || !/^\d+$/.test(stamp)) return skip('clock', 'the answer carries no signature timestamp');
  const skew = Math.round(probe.now() / 1000 - Number(stamp));
  const window = probe.settings.signatureWindow.value;
  const text = skew === 0 ? 'this computer and the server agree to the second' : `this computer is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server`;
  return Math.abs(skew) <= window ? pass('clock', text) : fail('clock', `${text}; answers older than ${window} s are refused`);
}
