/**
 * The seller-API caller (docs/protocol/seller-api.md §1): `GET {base}/api/seller/?sellerkey=…&type=…&…`,
 * paced to the key's budget, retried when rate-limited, and mapped to a body or a typed error.
 *
 * Special answers it knows:
 * - 302 with a JSON body and no Location (`add` of several keys) is a normal answer.
 * - A list operation's "nothing here" — HTTP 406, or `success:false` with the op's empty
 *   message or any `No … found` — is an empty list, `{ success: true, [key]: [] }`.
 * - A refused seller key (wrong length, unknown key, no seller plan, IP restriction, banned
 *   app) is an AuthError (exit 3) with a hint on what to check.
 * - `format=text` returns the text itself; failures are still recognised when they come as
 *   JSON (the server always sends rate limits and key refusals as JSON) or with a 4xx/5xx status.
 */
import { ApiFailure, AuthError, RateLimitError } from './errors.js';
import type { AuthReason } from './errors.js';
import { checkAnswerShape, checkRateLimit, isFailureBody, messageOf, notJson, parseJsonObject, readJsonAnswer } from './answer.js';
import type { Answer, ExpectedField } from './answer.js';
import { excerpt } from './excerpt.js';
import { DEFAULT_SELLER_CALLS_PER_MINUTE, Pacer } from './pacer.js';
import { textRedactor, withoutPasswordFields } from './redact.js';
import type { TextRedactor } from './redact.js';
import { retryNoticeLine, withRetry } from './retry.js';
import type { CallerOptions } from './caller-options.js';
import type { Effect } from './seller-catalog/types.js';
import { joinSignals } from './signals.js';
import type { TransportResponse } from './transport.js';

export interface SellerApiOptions extends CallerOptions {
  /** Server root, e.g. `https://keyauth.win`. */
  baseUrl: string;
  sellerKey: string;
  /** Client-side budget per minute for this key (default 120; 0 turns pacing off). */
  ratePerMinute?: number;
  /** Folder for the pacing state shared by every kactl process; in-memory when absent. */
  stateDir?: string;
  /** Told before a pacing wait; default: a `warn` line. */
  onWait?: (ms: number) => void | (() => void);
  /** Told once when `stateDir` cannot be written and pacing goes on in memory for this run. */
  onPacingStateUnwritable?: (error: unknown, stateDir: string) => void;
}

/** A parameter value; `undefined` and `null` are left out of the query. */
export type SellerParamValue = string | number | boolean | undefined | null;

export interface SellerCallOptions {
  /** From the catalog; decides retries after dropped connections. Default `write` (never blindly retried). */
  effect?: Effect;
  /** For list operations: the response key and the op's empty-list message. */
  list?: { key: string; emptyMessage: string };
  /** Fields a successful answer must carry (from the catalog's response spec); JSON answers only. */
  expect?: readonly ExpectedField[];
  /**
   * A success without `key` whose message matches `pattern` gets `key` from the pattern's first
   * group (the 2022 server's `upload` says only "File ID <id> Uploaded Successfully").
   */
  valueFromMessage?: { key: string; pattern: RegExp };
  /** `text`: ask for the plain-text answer and return it as a string. */
  format?: 'text';
  signal?: AbortSignal;
  /** Aborts only the pacing wait before the call is sent (a bulk job stopping before a record's first call). */
  waitSignal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Ctrl-C does not cut the HTTP request short (pacing and retry waits still stop): for a write
   * whose answer says what it made (`add`), so a run stopped mid-call still learns its keys.
   */
  finishOnInterrupt?: boolean;
  /**
   * One try and no pacing wait (shell completion): a used-up budget, a rate limit or a dropped
   * connection ends the call at once with its error, where a command would wait up to a minute.
   */
  noWait?: boolean;
}

/** Refused-key messages (docs/protocol/seller-api.md §1.3 and its older variants) and why each refuses. */
const REFUSED_KEY: readonly { pattern: RegExp; reason: AuthReason }[] = [
  { pattern: /^Seller key should be 32 characters/i, reason: 'seller-key-length' },
  { pattern: /^Invalid seller key length/i, reason: 'seller-key-length' },
  { pattern: /^No seller key specified/i, reason: 'seller-key-missing' },
  { pattern: /^(No application found|No application with specified seller key found|Seller Key Not Found)/i, reason: 'unknown-seller-key' },
  { pattern: /^Not authorized to use SellerAPI/i, reason: 'no-seller-plan' },
  { pattern: /^Restricted\. Only authorized IPs/i, reason: 'ip-restricted' },
  { pattern: /has been banned from KeyAuth/i, reason: 'app-banned' },
  { pattern: /\bseller ?key\b.*\b(invalid|not found|not valid|wrong|refused)\b|\binvalid seller ?key\b/i, reason: 'seller-key-refused' },
];

/** Why the server refused the seller key, or undefined when the message is something else. */
export function refusedKeyReason(message: string): AuthReason | undefined {
  return REFUSED_KEY.find((entry) => entry.pattern.test(message))?.reason;
}

/** A `No … found` failure (any list's empty answer). */
const NOTHING_FOUND = /^No .*found\b/i;

/** Calls a KeyAuth-style seller API with one seller key. */
export class SellerApi {
  private readonly options: SellerApiOptions;
  private readonly pacer: Pacer;
  private readonly now: () => number;
  private readonly redact: TextRedactor;

  constructor(options: SellerApiOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.redact = textRedactor([options.sellerKey]);
    const limit = options.ratePerMinute ?? DEFAULT_SELLER_CALLS_PER_MINUTE;
    this.pacer = new Pacer({
      key: options.sellerKey,
      limit,
      ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
      now: this.now,
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.onPacingStateUnwritable ? { onStateUnwritable: options.onPacingStateUnwritable } : {}),
      onWait:
        options.onWait ??
        ((ms) => options.warn(`pacing: waiting ${(ms / 1000).toFixed(1)} s for the seller API budget (${limit} call${limit === 1 ? '' : 's'} a minute).`)),
    });
  }

  /** Round trips (ms) of the latest calls, pacing waits left out: what an estimate assumes a call takes. */
  private readonly roundTrips: number[] = [];

  /** The mean round trip of the latest calls, or undefined before the first. */
  meanRoundTripMs(): number | undefined {
    return this.roundTrips.length === 0 ? undefined : this.roundTrips.reduce((a, b) => a + b, 0) / this.roundTrips.length;
  }

  /** How long `calls` more calls take at this key's pace, each `perCallMs` long (pacer.ts). */
  estimateMs(calls: number, perCallMs: number): number {
    return this.pacer.estimateMs(calls, perCallMs);
  }

  /** The budget calls are paced to, per minute (0: not paced). */
  get callsPerMinute(): number {
    return this.pacer.callsPerWindow;
  }

  /** Calls `type` and returns the parsed body (or, with `format: 'text'`, the text), or throws. */
  call(type: string, params?: Readonly<Record<string, SellerParamValue>>, options?: SellerCallOptions & { format: 'text' }): Promise<string>;
  call(type: string, params?: Readonly<Record<string, SellerParamValue>>, options?: SellerCallOptions): Promise<Record<string, unknown>>;
  async call(type: string, params: Readonly<Record<string, SellerParamValue>> = {}, options: SellerCallOptions = {}): Promise<Record<string, unknown> | string> {
    const answer = await this.request(type, params, options);
    return options.format === 'text' ? answer.text : answer.body;
  }

  /** The URL a call requests: sellerkey, type, then the parameters in order (`--dry-run` prints it redacted). */
  requestUrl(type: string, params: Readonly<Record<string, SellerParamValue>> = {}, format?: 'text'): URL {
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/api/seller/`);
    const query = new URLSearchParams();
    query.set('sellerkey', this.options.sellerKey);
    query.set('type', type);
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    if (format === 'text') query.set('format', 'text');
    url.search = query.toString();
    return url;
  }

  /**
   * Like `call`, with the status, headers and raw bytes. `text` is the body as text (what a
   * `format=text` caller wants); `body` is the parsed or synthesised JSON object.
   */
  async request(type: string, params: Readonly<Record<string, SellerParamValue>> = {}, options: SellerCallOptions = {}): Promise<Answer & { text: string }> {
    if (this.options.sellerKey === '') {
      throw new AuthError('No seller key is set.', { reason: 'no-seller-key' });
    }
    const url = this.requestUrl(type, params, options.format);
    const signal = joinSignals(this.options.signal, options.signal);
    const requestSignal = options.finishOnInterrupt ? options.signal : signal;

    const attempt = async (): Promise<Answer & { text: string }> => {
      if (!options.noWait) await this.pacer.acquire(joinSignals(signal, options.waitSignal));
      else if (!(await this.pacer.tryAcquire())) throw new RateLimitError('The seller API budget of this key is used up for now; not waiting.');
      const res = await this.options.transport.request({
        method: 'GET',
        url,
        secrets: [this.options.sellerKey],
        ...(requestSignal ? { signal: requestSignal } : {}),
        ...(options.finishOnInterrupt ? { finishOnInterrupt: true } : {}),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      this.roundTrips.push(res.elapsedMs);
      if (this.roundTrips.length > 20) this.roundTrips.shift();
      return options.format === 'text' ? this.readText(res) : { ...readJsonAnswer(res, { redact: this.redact, nowMs: this.now(), ...this.rateWindow() }), text: res.body.toString('utf8') };
    };
    const answer = await withRetry(attempt, {
      effect: options.effect ?? 'write',
      ...(options.noWait ? { maxAttempts: 1 } : this.options.maxAttempts === undefined ? {} : { maxAttempts: this.options.maxAttempts }),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
      ...(signal ? { signal } : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
      onRetry: (notice) => this.options.warn(retryNoticeLine(notice)),
      ...(this.options.countdown ? { countdown: this.options.countdown } : {}),
    });
    return this.mapAnswer(type, answer, options);
  }

  /**
   * A `format=text` answer: JSON failures (rate limit, refused key) are read as JSON; a 5xx or
   * an HTML page is a bad answer; otherwise the text is the answer, and a 4xx marks it a failure.
   */
  private readText(res: TransportResponse): Answer & { text: string } {
    const text = res.body.toString('utf8');
    const parsed = parseJsonObject(text);
    checkRateLimit(res, parsed, text, this.now(), this.options.rateWindowMs);
    const base = { status: res.status, headers: res.headers, raw: res.body, elapsedMs: res.elapsedMs, text };
    if (res.status >= 500) readJsonAnswer(res, { redact: this.redact, nowMs: this.now() }); // throws the server-fault error
    if (/^\s*</.test(text)) throw notJson(res, text, this.redact);
    if (parsed !== undefined) return { ...base, body: parsed };
    const message = text.trim();
    return { ...base, body: res.status >= 400 ? { success: false, message } : { success: true, message } };
  }

  private rateWindow(): { rateWindowMs?: number } {
    return this.options.rateWindowMs === undefined ? {} : { rateWindowMs: this.options.rateWindowMs };
  }

  private mapAnswer(type: string, given: Answer & { text: string }, options: SellerCallOptions): Answer & { text: string } {
    const answer = withValueFromMessage(given, options.valueFromMessage);
    const { body, status } = answer;
    // A 406 to a list is its empty answer whatever the body; anything else must have a boolean
    // `success` and, on success, the fields the operation promises (answer.ts).
    // E answers an empty `usersub` with success and the text "not_found" where the list goes.
    if (options.list !== undefined && body.success === true && body[options.list.key] === 'not_found') {
      return { ...answer, body: { ...body, [options.list.key]: [] } };
    }
    if (!(options.list !== undefined && status === 406)) checkAnswerShape(answer, type, options.format === 'text' ? [] : (options.expect ?? []));
    const failed = isFailureBody(body) || (status >= 400 && body.success !== true);
    const message = messageOf(body) ?? (failed ? excerpt(answer.text, { redact: this.redact }) : '');
    if (failed) {
      const reason = refusedKeyReason(message);
      if (reason !== undefined) throw new AuthError(message, { body, reason });
    }
    if (options.list !== undefined && (status === 406 || (failed && (message === options.list.emptyMessage || NOTHING_FOUND.test(message))))) {
      return { ...answer, body: { success: true, message, [options.list.key]: [] } };
    }
    if (failed) {
      throw new ApiFailure(message === '' ? `The server refused the call (HTTP ${status}) without a message.` : message, body, status);
    }
    const records = options.list === undefined ? undefined : body[options.list.key];
    if (options.list !== undefined && Array.isArray(records)) {
      // Records are printed and backed up as they come: a password hash must not be among them.
      return { ...answer, body: { ...body, [options.list.key]: records.map(withoutPasswordFields) } };
    }
    return answer;
  }
}

/** The answer with `key` taken from its message, when a success lacks it and the message says it. */
function withValueFromMessage<T extends Answer>(answer: T, from: SellerCallOptions['valueFromMessage']): T {
  const { body } = answer;
  if (from === undefined || body.success !== true || body[from.key] !== undefined) return answer;
  const found = typeof body.message === 'string' ? from.pattern.exec(body.message)?.[1] : undefined;
  return found === undefined ? answer : { ...answer, body: { ...body, [from.key]: found } };
}
