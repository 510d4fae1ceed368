/**
 * The client-API caller (docs/protocol/client-api.md; docs/design.md "1.3 method", "1.3 integrity", "1.2 integrity",
 * "Sessions"). Adds `type`, `name`, `ownerid` and the stored `sessionid` to every call, sends
 * 1.3 as a POST form when the call carries a credential and as GET with a query string
 * otherwise (the profile may choose one for all) and 1.2 as POST form, checks the answer's
 * signature, and turns the answer into the parsed body or a typed error. While verifying, a
 * call whose answer it has no key to check (no public key for 1.3, no secret for 1.2) is not
 * sent at all: the caller chose `verify: false` or gets a UsageError saying so.
 *
 * What it needs to know per type (the version, whether a retry is safe, the fields a success
 * must carry, empty and large answers) is the type's record in src/api/client-catalog/. What a
 * type's answer means (the inverted `checkblacklist`, `var` returning its value in `message`) is
 * the command layer's business; this layer only maps what is the same for all.
 */
import type { KeyObject } from 'node:crypto';
import { ApiFailure, AuthError, SignatureError, UsageError } from './errors.js';
import { BadResponseError } from './api-errors.js';
import { checkAnswerShape, isFailureBody, messageOf, readJsonAnswer } from './answer.js';
import type { Answer } from './answer.js';
import { apiVersionFor, carriesCredential, clientEffect, hasLargeAnswer, mayAnswerEmpty, successFields } from './client-catalog/index.js';
import type { ClientApiVersion } from './client-catalog/index.js';
import { textRedactor } from './redact.js';
import { retryNoticeLine, withRetry } from './retry.js';
import type { CallerOptions } from './caller-options.js';
import type { Effect } from './seller-catalog/types.js';
import { joinSignals } from './signals.js';
import type { TransportResponse } from './transport.js';
import type { SessionStore, StoredSession } from './session.js';
import { loadCryptoSoon, nodeCrypto } from '../util/node-crypto.js';
import { checkNotReplayed, DEFAULT_SIGNATURE_WINDOW_SEC, ed25519PublicKey, hmacKeyFor, verifyEd25519, verifyHmac, type AnswerMemory } from './verify.js';

export type { ClientApiVersion } from './client-catalog/index.js';

export type { SessionStore, StoredSession } from './session.js';

export interface ClientApiOptions extends CallerOptions {
  /** Server root, e.g. `https://keyauth.win` or `http://127.0.0.1:4000`. */
  baseUrl: string;
  appName: string;
  /** 10 characters. */
  ownerid: string;
  /** Sent as `ver` at init; empty skips the server's version check. */
  appVersion: string;
  /** Unset: each type's own version (src/api/client-catalog/: 1.2 for chat and user variables, else 1.3). */
  api?: ClientApiVersion;
  /**
   * 1.3 only; 1.2 is always POST form. Unset: POST form for a call carrying a credential
   * (`carriesCredential`: a password, key, code or token), GET with a query for the rest.
   */
  method?: 'get' | 'post';
  /** Raw hex Ed25519 key that signs 1.3 answers; while verifying, no 1.3 call is sent without it. */
  publicKey?: string;
  /** The app secret; while verifying, no 1.2 call is sent without it. */
  secret?: string;
  /** Accepted |now − timestamp| for 1.3 answers (default 60 s). */
  signatureWindowSec?: number;
  /** False with `--no-verify`: signatures are not checked (a warning says so). Default true. */
  verify?: boolean;
  /** The warning given once when `verify` is false (the CLI names its flag). */
  noVerifyWarning?: string;
  /**
   * The refusal when verifying is on and the key that checks `api`'s answers is missing (the
   * CLI names its flags and settings); default: `missingKeyMessage`, naming the library's options.
   */
  missingKey?: (api: ClientApiVersion, type: string) => { readonly message: string; readonly hints?: readonly string[] };
  session: SessionStore;
  /** The signatures of answers accepted before (the replay check); no replay check without it. */
  answerMemory?: AnswerMemory;
}

/** A parameter value; `undefined` and `null` are left out of the request. */
export type ParamValue = string | number | boolean | undefined | null;

export interface ClientCallOptions {
  /** Ctrl-C. */
  signal?: AbortSignal;
  /** Return a `success:false` body instead of throwing ApiFailure (auth errors still throw). */
  acceptFailure?: boolean;
  /** Overrides the read/write classification of the type (retries after dropped connections). */
  effect?: Effect;
  /** Overrides the version for this call. */
  api?: ClientApiVersion;
  /** Overrides the transport's timeout, in ms. */
  timeoutMs?: number;
  /**
   * Sent on kactl's own account, not the program's (client init's check of a stored session):
   * marked with an `X-Kactl-Probe` header, which kactl's sandbox records and leaves out of
   * `sandbox logs --failed`. Other servers ignore the header.
   */
  probe?: boolean;
}

/** The parsed answer of a client call, with its status and headers. */
export interface ClientAnswer extends Answer {
  api: ClientApiVersion;
}

/** Length of the enckey sent at init, as the official 1.2 SDKs send it (docs/protocol/client-api.md §2.1). */
export const ENCKEY_LENGTH = 16;
/** The body cap for types with large answers (a file, hex-encoded in JSON). */
const LARGE_ANSWER_MAX_BYTES = 256 * 1024 * 1024;

// Session messages (docs/protocol/client-api.md §3). The first ends the stored session.
const SESSION_GONE = [/^Session not found/i, /\bsession\b.*\b(expired|has ended|no longer exists)\b/i];
const SESSION_UNVALIDATED = /^Session is not validated/i;

/** A fresh random enckey: 16 characters from [0-9a-zA-Z]. */
export function newEnckey(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // 248 is the largest multiple of 62 below 256: dropping bytes above it keeps the choice uniform.
  let out = '';
  while (out.length < ENCKEY_LENGTH) {
    for (const byte of nodeCrypto().randomBytes(32)) {
      if (byte < 248 && out.length < ENCKEY_LENGTH) out += alphabet[byte % 62];
    }
  }
  return out;
}

/**
 * The library's sentence for a missing key (kactl/client's options): what checks the answers of
 * `api`, and `verify: false` as the explicit way to do without.
 */
export function missingKeyMessage(api: ClientApiVersion, type?: string): string {
  const call = type === undefined ? '' : ` (\`${type}\` goes to API ${api})`;
  return api === '1.3'
    ? `No publicKey to check the server's 1.3 answers with${call}: pass publicKey (the server's Ed25519 public key, 64 hex), or verify: false to accept answers nobody checked.`
    : `No secret to check the server's 1.2 answers with${call}: pass secret (the app secret), or verify: false to accept answers nobody checked.`;
}

/** Calls a KeyAuth-style client API (1.3 and 1.2) for one application. */
export class ClientApi {
  private readonly options: ClientApiOptions;
  private readonly now: () => number;
  private readonly verifyOn: boolean;
  private publicKeyObject: KeyObject | undefined;
  private warnedNoVerify = false;

  constructor(options: ClientApiOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.verifyOn = options.verify ?? true;
  }

  /**
   * Opens a session: sends `ver` and a fresh `enckey` (plus `extra`: hash, token, thash…),
   * stores `{ id, enckey, createdAt, api }` and returns the answer's body. Whether a live session
   * should stop a second init is the command's rule, not this method's.
   */
  async init(extra: Readonly<Record<string, ParamValue>> = {}, options: ClientCallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.openSession(extra, options)).body;
  }

  private async openSession(extra: Readonly<Record<string, ParamValue>>, options: ClientCallOptions): Promise<ClientAnswer> {
    const enckey = newEnckey();
    const api = options.api ?? apiVersionFor('init', this.options.api);
    const params = { ver: this.options.appVersion === '' ? undefined : this.options.appVersion, enckey, ...extra };
    const answer = await this.exchange('init', params, { ...options, api }, { enckey });
    // Only reached with a failure when the caller asked for failures back: nothing to store.
    if (isFailureBody(answer.body)) return answer;
    const id = answer.body.sessionid;
    if (typeof id !== 'string' || id === '') {
      throw new BadResponseError('The server accepted init but sent no sessionid.', {
        kind: 'not-object',
        status: answer.status,
        excerpt: '',
        body: answer.body,
      });
    }
    this.options.session.save({ id, enckey, createdAt: this.now(), api });
    return answer;
  }

  /** Calls `type` on the stored session and returns the parsed body, or throws. */
  async call(type: string, params: Readonly<Record<string, ParamValue>> = {}, options: ClientCallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.request(type, params, options)).body;
  }

  /** Like `call`, with the status, headers, raw bytes and version of the answer. */
  async request(type: string, params: Readonly<Record<string, ParamValue>> = {}, options: ClientCallOptions = {}): Promise<ClientAnswer> {
    if (type === 'init') return this.openSession(params, options);
    const session = this.options.session.load();
    if (session === undefined) {
      throw new AuthError('There is no client session; call init() first.', { reason: 'no-session' });
    }
    const api = options.api ?? apiVersionFor(type, this.options.api);
    return this.exchange(type, params, { ...options, api }, { session });
  }

  /** One call with retries, verification and the mapping of failures. */
  private async exchange(
    type: string,
    params: Readonly<Record<string, ParamValue>>,
    options: ClientCallOptions & { api: ClientApiVersion },
    context: { session?: StoredSession; enckey?: string },
  ): Promise<ClientAnswer> {
    const { api } = options;
    const session = context.session;
    const fields = new URLSearchParams();
    fields.set('type', type);
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined && value !== null) fields.set(name, String(value));
    }
    if (session) fields.set('sessionid', session.id);
    fields.set('name', this.options.appName);
    fields.set('ownerid', this.options.ownerid);

    this.requireKey(api, type);
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/api/${api}/`);
    const asGet = api === '1.3' && (this.options.method ?? (carriesCredential(fields) ? 'post' : 'get')) === 'get';
    if (asGet) url.search = fields.toString();
    const signal = joinSignals(this.options.signal, options.signal);
    const secrets = [session?.id, session?.enckey, context.enckey, this.options.secret];
    const redact = textRedactor(secrets);
    this.warnIfNotVerifying();

    // Whether the answer returned is a failure let through unsigned (verifyAnswer).
    let unsignedFailure = false;
    const attempt = async (): Promise<ClientAnswer> => {
      // The signature check's node:crypto loads while the request is in flight.
      if (this.verifyOn) loadCryptoSoon();
      const res = await this.options.transport.request({
        method: asGet ? 'GET' : 'POST',
        url,
        ...(asGet ? {} : { form: fields }),
        ...(options.probe === true ? { headers: { 'x-kactl-probe': '1' } } : {}),
        secrets,
        ...(signal ? { signal } : {}),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(hasLargeAnswer(type) ? { maxBodyBytes: LARGE_ANSWER_MAX_BYTES } : {}),
      });
      const answer = this.readAnswer(type, api, res, redact, session !== undefined);
      unsignedFailure = this.verifyAnswer(type, api, res, answer.body, session?.enckey ?? context.enckey);
      return { ...answer, api };
    };
    const answer = await withRetry(attempt, {
      effect: options.effect ?? clientEffect(type),
      ...(this.options.maxAttempts === undefined ? {} : { maxAttempts: this.options.maxAttempts }),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
      ...(signal ? { signal } : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
      onRetry: (notice) => this.options.warn(retryNoticeLine(notice)),
      ...(this.options.countdown ? { countdown: this.options.countdown } : {}),
    });
    checkAnswerShape(answer, type, successFields(type));
    this.mapFailure(type, answer, options.acceptFailure ?? false, unsignedFailure);
    return answer;
  }

  /** `inSession`: the call went on a session this server opened for this app (init accepted it). */
  private readAnswer(type: string, api: ClientApiVersion, res: TransportResponse, redact: (text: string) => string, inSession: boolean): Answer {
    // The 1.2 server answers `log` with an empty, unsigned body (docs/protocol/client-api.md §1.6).
    if (mayAnswerEmpty(type) && res.body.length === 0 && res.status < 300) {
      return { body: { success: true, message: '' }, status: res.status, headers: res.headers, raw: res.body, elapsedMs: res.elapsedMs };
    }
    try {
      return readJsonAnswer(res, { redact, nowMs: this.now(), ...this.rateWindow() });
    } catch (error) {
      if (error instanceof BadResponseError && error.kind === 'keyauth-invalid') throw this.unknownApp(type, api, res, error, inSession);
      throw error;
    }
  }

  /**
   * KeyAuth_Invalid is the server's answer for an app it does not know. Before a session that is
   * what it means; on a session this server opened for the same app it cannot be the profile's
   * name or ownerid, so the sentence says what else it can be.
   */
  private unknownApp(type: string, api: ClientApiVersion, res: TransportResponse, error: BadResponseError, inSession: boolean): BadResponseError {
    const { appName, ownerid } = this.options;
    const host = new URL(res.url).host;
    const message = inSession
      ? `${host} answered ${type} with the bare text KeyAuth_Invalid, its answer for an unknown application, though it opened this session for "${appName}" (owner id ${ownerid}): the application was removed since, or something between kactl and the server answered in its place.`
      : `No application named "${appName}" with owner id ${ownerid} exists on ${host} (it answered KeyAuth_Invalid to the ${api} API).`;
    return new BadResponseError(message, { kind: 'keyauth-invalid', status: error.status, excerpt: error.excerpt });
  }

  private rateWindow(): { rateWindowMs?: number } {
    return this.options.rateWindowMs === undefined ? {} : { rateWindowMs: this.options.rateWindowMs };
  }

  /** While verifying, refuses a call to `api` without the key that checks its answers (nothing is sent). */
  private requireKey(api: ClientApiVersion, type: string): void {
    if (!this.verifyOn) return;
    const key = api === '1.3' ? this.options.publicKey : this.options.secret;
    if (key !== undefined && key !== '') return;
    const refusal = this.options.missingKey?.(api, type) ?? { message: missingKeyMessage(api, type) };
    throw new UsageError(refusal.message, refusal.hints === undefined ? {} : { hints: [...refusal.hints] });
  }

  private warnIfNotVerifying(): void {
    if (this.verifyOn || this.warnedNoVerify) return;
    this.warnedNoVerify = true;
    this.options.warn(this.options.noVerifyWarning ?? 'Not checking the server\'s answer signatures (verify: false).');
  }

  /**
   * Ed25519 for 1.3 when there is a public key; HMAC for 1.2 when there is a secret. True when
   * the answer is a 1.2 failure let through unsigned (see below): its message may be shown, and
   * nothing else of it acted on.
   */
  private verifyAnswer(type: string, api: ClientApiVersion, res: TransportResponse, body: Record<string, unknown>, enckey: string | undefined): boolean {
    if (!this.verifyOn) return false;
    if (api === '1.3') {
      // requireKey let no call through without it.
      this.publicKeyObject ??= ed25519PublicKey(this.options.publicKey ?? '');
      verifyEd25519({
        headers: res.headers,
        body: res.body,
        publicKey: this.publicKeyObject,
        nowMs: this.now(),
        windowSec: this.options.signatureWindowSec ?? DEFAULT_SIGNATURE_WINDOW_SEC,
      });
      // Signed answers echo the app's ownerid (docs/protocol/client-api.md §2.3): a signed answer for another
      // app must not be taken for ours.
      if (typeof body.ownerid === 'string' && body.ownerid !== this.options.ownerid) {
        throw new SignatureError(`The signed answer is for another application (ownerid ${body.ownerid}, expected ${this.options.ownerid}).`, { reason: 'other-app', scheme: 'ed25519' });
      }
      if (this.options.answerMemory) checkNotReplayed(this.options.answerMemory, res.headers['x-signature-ed25519'], body);
      return false;
    }
    const secret = this.options.secret ?? '';
    if (mayAnswerEmpty(type) && res.body.length === 0) return false;
    // The 1.2 server leaves a few failures unsigned (the global checks, session not found, an
    // unknown type — docs/protocol/client-api.md §2.2), and each is a bare success and message.
    // Such a failure is let through so its message can be shown; one that carries anything more
    // (an `invalidver` with a download link) is something kactl would act on, so it must be
    // signed, as the server signs every init failure.
    const header = res.headers.signature?.trim() ?? '';
    if (header === '' && isFailureBody(body)) {
      const extra = Object.keys(body).filter((field) => field !== 'success' && field !== 'message');
      if (extra.length === 0) return true;
      throw new SignatureError(`The server's failure answer is not signed, yet it carries ${extra.map((field) => `"${field}"`).join(', ')}; when the app secret is known, only signed answers are acted on.`, {
        reason: 'unsigned',
        scheme: 'hmac',
        hints: ['The answer was changed on the way, or this is not the server the app secret belongs to.'],
      });
    }
    verifyHmac({
      headers: res.headers,
      body: res.body,
      key: hmacKeyFor(type, secret, enckey),
      enckeySent: enckey !== undefined,
      keyLabel: type === 'init' || enckey === undefined ? 'the app secret' : 'the session key (enckey-secret)',
    });
    if (this.options.answerMemory) checkNotReplayed(this.options.answerMemory, header, body);
    return false;
  }

  /**
   * success:false → AuthError for session problems, ApiFailure otherwise (unless accepted). An
   * unsigned failure is never handed back as an answer (`checkblacklist` would read it as "not
   * blacklisted"): it stops the command with its message.
   */
  private mapFailure(type: string, answer: ClientAnswer, acceptFailure: boolean, unsigned: boolean): void {
    const { body, status } = answer;
    if (!isFailureBody(body)) return;
    const message = messageOf(body) ?? 'The server refused the request without a message.';
    if (SESSION_GONE.some((pattern) => pattern.test(message))) {
      this.options.session.save(undefined);
      throw new AuthError(message, { body, reason: 'session-ended' });
    }
    if (SESSION_UNVALIDATED.test(message)) {
      throw new AuthError(message, { body, reason: 'session-unvalidated' });
    }
    if (unsigned) {
      throw new ApiFailure(message, body, status, { reason: 'unsigned' });
    }
    if (acceptFailure) return;
    if (type === 'init' && message === 'invalidver') {
      const download = typeof body.download === 'string' ? body.download : '';
      const where = download === '' ? 'The server gives no download link.' : `Download link: ${download}`;
      // The next steps (the CLI's hints, src/error-hints.ts) read the reason and body.download.
      throw new ApiFailure(`invalidver: the server wants another version than ${this.options.appVersion || '(none sent)'}. ${where}`, body, status, { reason: 'outdated-version' });
    }
    throw new ApiFailure(message, body, status);
  }
}
