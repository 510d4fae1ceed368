/**
 * `kactl/seller`: a typed client of the seller API for one seller key. `call(type, params)` is
 * typed by the catalog (seller-operations.ts, generated from src/api/seller-catalog/): the
 * parameters a type takes, which are required, and the fields of its answer. Under it is the
 * CLI's own caller (seller-api.ts): calls paced to the key's budget (120 a minute by default,
 * shared with other processes through `stateDir`), rate limits waited out, empty lists read as
 * empty, refused keys as AuthError. `createLicenses` is the bulk engine of
 * `kactl licenses create --amount N` (bulk-licenses.ts).
 */
import { createLicenses, type CreatedLicenses, type CreateLicensesOptions, type LicenseRequest } from './bulk-licenses.js';
import { UsageError } from './errors.js';
import { logLine, type Logger } from './logger.js';
import { DEFAULT_SELLER_CALLS_PER_MINUTE } from './pacer.js';
import { SellerApi, type SellerParamValue } from './seller-api.js';
import { findSellerOp, wireParamsForType } from './seller-catalog/index.js';
import type { ParamSpec } from './seller-catalog/index.js';
import { responseOptions } from './seller-call-options.js';
import type { SellerAnswer, SellerParams, SellerType } from './seller-operations.js';
import { Transport } from './transport.js';
import type { Answer } from './answer.js';

export interface SellerOptions {
  /** The server's root, e.g. `https://keyauth.win` or a sandbox's `baseUrl`. */
  readonly baseUrl: string;
  /** The application's seller key (32 characters). */
  readonly sellerKey: string;
  /** Calls a minute this client allows itself (default 120, the hosted budget); 0 turns pacing off. */
  readonly ratePerMinute?: number;
  /** A folder where the pacing state is shared with other processes using the same key; default: in memory. */
  readonly stateDir?: string;
  /** Per request, in ms (default 15 000). */
  readonly timeoutMs?: number;
  /** Certificate authorities (PEM) an HTTPS server must chain to, instead of the system's. */
  readonly ca?: string;
  /** Aborts every call and every wait (an InterruptedError). */
  readonly signal?: AbortSignal;
  /** Pacing waits and retry notes (warn), requests (debug); default: none are written anywhere. */
  readonly logger?: Logger;
}

export interface SellerCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** The arguments of `call(type, …)`: the parameters may be left out when none is required. */
export type SellerCallArgs<T extends SellerType> =
  Record<string, never> extends SellerParams<T> ? [params?: SellerParams<T>, options?: SellerCallOptions] : [params: SellerParams<T>, options?: SellerCallOptions];

/** A typed seller API client for one key. Close it when done (or `await using`). */
export interface KactlSeller {
  /** Calls a seller operation by its wire type, e.g. `call('fetchallkeys')`, `call('add', { expiry: 30, amount: 5 })`. */
  call<T extends SellerType>(type: T, ...args: SellerCallArgs<T>): Promise<SellerAnswer<T>>;
  /** Any type and parameters (a type the catalog does not know, as `kactl seller call` sends it). */
  raw(type: string, params?: Readonly<Record<string, SellerParamValue>>, options?: SellerCallOptions): Promise<Record<string, unknown>>;
  /** Like `raw`, with the status, headers and exact bytes of the answer. */
  request(type: string, params?: Readonly<Record<string, SellerParamValue>>, options?: SellerCallOptions): Promise<Answer & { text: string }>;
  /** Any number of license keys, 100 a call, paced; see CreateLicensesOptions for what a failure leaves. */
  createLicenses(request: LicenseRequest, options?: CreateLicensesOptions): Promise<CreatedLicenses>;
  /** Closes the client's connections. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A value as the wire wants it: `bool01` as 1/0, `booltext` as true/false. */
function wireValue(name: string, spec: ParamSpec | undefined, value: unknown): SellerParamValue {
  if (typeof value === 'boolean' && spec?.type === 'bool01') return value ? '1' : '0';
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new UsageError(`The parameter ${name} must be a string, a number or a boolean.`);
}

/** A seller API client; see SellerOptions. */
export function createSeller(options: SellerOptions): KactlSeller {
  const transport = new Transport({
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.logger?.debug ? { verbose: logLine(options.logger, 'debug') } : {}),
  });
  const warn = logLine(options.logger, 'warn');
  const api = new SellerApi({
    baseUrl: options.baseUrl,
    sellerKey: options.sellerKey,
    ratePerMinute: options.ratePerMinute ?? DEFAULT_SELLER_CALLS_PER_MINUTE,
    ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
    transport,
    warn,
    onWait: (ms) => warn(`Pacing: waiting ${(ms / 1000).toFixed(1)} s to stay within the seller API budget.`),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= transport.close());

  const call = async (type: string, params: Readonly<Record<string, unknown>> = {}, callOptions: SellerCallOptions = {}): Promise<Record<string, unknown>> => {
    const op = findSellerOp(type);
    const wire: Record<string, SellerParamValue> = {};
    // Every parameter the server reads for the type, those its variants add included (`activeOnly`).
    const specs = wireParamsForType(type);
    for (const [name, value] of Object.entries(params)) wire[name] = wireValue(name, specs.find((p) => p.wire === name), value);
    return api.call(type, wire, { ...callOptions, ...(op ? { effect: op.effect === 'read' ? 'read' : 'write', ...responseOptions(op) } : {}) });
  };

  return {
    call: ((type: string, params?: Readonly<Record<string, unknown>>, callOptions?: SellerCallOptions) => call(type, params, callOptions)) as KactlSeller['call'],
    raw: (type, params = {}, callOptions = {}) => api.call(type, params, callOptions),
    request: (type, params = {}, callOptions = {}) => api.request(type, params, callOptions),
    createLicenses: (request, createOptions) => createLicenses(api, request, createOptions),
    close,
    [Symbol.asyncDispose]: close,
  };
}
