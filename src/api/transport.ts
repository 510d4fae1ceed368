/**
 * The one HTTP transport of the protocol library (docs/architecture.md, "The protocol library").
 *
 * - Requests go through Node's own HTTP client (src/api/node-request.ts), with keep-alive agents
 *   per Transport, so a CLI run that makes many calls reuses its connection; answers read as
 *   they arrive (`stream`) and a dispatcher passed in go through undici, loaded only then.
 * - A default timeout on headers and body, plus an overall deadline; the caller's signal
 *   (Ctrl-C) ends the request at once as an InterruptedError.
 * - Redirects are never followed. The seller API's `add` answers 302 with a JSON body and no
 *   Location, which is a normal answer and is returned; a 3xx that points somewhere is an error
 *   saying where, because following it silently could send a seller key to another host.
 * - The body is read whatever the status (servers put their reasons in it), up to a size cap.
 * - `--verbose` lines go to an optional sink, always through the redactor.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { InterruptedError } from './errors.js';
import { TransportError } from './api-errors.js';
import type { TransportFailureKind } from './api-errors.js';
import { excerpt, formatSeconds } from './excerpt.js';
import { CONNECT_TIMEOUT_CODE, CONNECT_TIMEOUT_MS, NodeAgents, nodeRequest, type Sent } from './node-request.js';
import { redactForm, redactUrl, textRedactor } from './redact.js';
import { joinSignals } from './signals.js';

/** Default timeout for one request (headers, body, and the whole exchange), in ms. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Default cap on a response body. File downloads come back hex-encoded in JSON (2× the file). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** How long an idle keep-alive connection is kept. */
const KEEP_ALIVE_MS = 10_000;

/** A line of `--verbose` output (already redacted); the caller writes it to stderr. */
export type VerboseSink = (line: string) => void;

export interface TransportOptions {
  /** An undici Dispatcher to use instead of the Transport's own connections (tests plug a MockAgent here). */
  dispatcher?: Dispatcher;
  /** Default timeout per request in ms (`--timeout`). */
  timeoutMs?: number;
  /** Default body size cap in bytes. */
  maxBodyBytes?: number;
  /** Receives `→ …` and `← …` lines when `--verbose` is on. */
  verbose?: VerboseSink;
  /** Sent as User-Agent. */
  userAgent?: string;
  /** Monotonic clock in ms, for the time taken (default `process.hrtime`). */
  clock?: () => number;
  /** Aborts every request made through this Transport (the CLI's Ctrl-C signal). */
  signal?: AbortSignal;
  /** Told the domain clock (Unix seconds) of a kactl sandbox, from its `x-sandbox-now` header. */
  onSandboxNow?: (unixSeconds: number) => void;
  /**
   * Certificate authorities (PEM) that HTTPS servers must chain to, instead of the system's: a
   * `--tls` sandbox's own authority. Not used with `dispatcher`.
   */
  ca?: string;
}

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Full URL, query string included. */
  url: string | URL;
  /** Sent as `application/x-www-form-urlencoded` (POST). */
  form?: URLSearchParams | Readonly<Record<string, string>>;
  headers?: Readonly<Record<string, string>>;
  /** Aborts the request (Ctrl-C); an abort becomes InterruptedError. */
  signal?: AbortSignal;
  /** The Transport's own signal (Ctrl-C) leaves this request running; `signal` still aborts it. */
  finishOnInterrupt?: boolean;
  /** Overrides the Transport's timeout for this request. */
  timeoutMs?: number;
  /** Overrides the Transport's body cap for this request (file downloads). */
  maxBodyBytes?: number;
  /** Values to scrub from verbose lines and error text besides the sensitive-name rules. */
  secrets?: readonly (string | undefined)[];
}

export interface TransportResponse {
  status: number;
  /** Reason phrase for the status (`OK`, `Too Many Requests`). */
  statusText: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string>>;
  /** The exact body bytes (signatures are over these, never over re-encoded text). */
  body: Buffer;
  /** The URL that was requested. */
  url: string;
  elapsedMs: number;
}

/** A request as it goes on the wire (Transport.request's first step). */
interface Outgoing {
  method: TransportRequest['method'];
  url: URL;
  timeoutMs: number;
  maxBodyBytes: number;
  redact: (text: string) => string;
  formText: string | undefined;
  headers: Record<string, string>;
}

/** The whole answer, read (Transport.request's second step). */
interface Received {
  answer: Sent;
  body: Buffer;
  elapsedMs: number;
}

/** An answer read as it arrives (Transport.stream). */
export interface TransportStream {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body's pieces as they arrive; a failure part way is a TransportError, Ctrl-C an InterruptedError. */
  body: AsyncIterable<Buffer>;
}

/** An HTTP transport; build one per process and pass it to ClientApi and SellerApi. */
export class Transport {
  /** A dispatcher passed in (every request goes through it), else undefined. */
  private readonly dispatcher: Dispatcher | undefined;
  /** Node's keep-alive agents, for requests when no dispatcher was passed in. */
  private readonly agents: NodeAgents;
  /** undici's Agent for `stream` when no dispatcher was passed in, made on first use. */
  private streamAgent: Dispatcher | undefined;
  private readonly ca: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly verbose: VerboseSink | undefined;
  private readonly userAgent: string;
  private readonly clock: () => number;
  private readonly signal: AbortSignal | undefined;
  private readonly onSandboxNow: ((unixSeconds: number) => void) | undefined;

  constructor(options: TransportOptions = {}) {
    this.dispatcher = options.dispatcher;
    this.ca = options.ca;
    this.agents = new NodeAgents({ keepAliveMs: KEEP_ALIVE_MS, ...(options.ca === undefined ? {} : { ca: options.ca }) });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.verbose = options.verbose;
    this.userAgent = options.userAgent ?? 'kactl';
    this.clock = options.clock ?? (() => Number(process.hrtime.bigint()) / 1e6);
    this.signal = options.signal;
    this.onSandboxNow = options.onSandboxNow;
  }

  /**
   * Sends one request and reads the whole answer. Resolves for any HTTP status except a 3xx
   * with a Location; rejects with TransportError (exit 4) or InterruptedError (exit 130).
   */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const outgoing = this.outgoing(req);
    const received = await this.receive(req, outgoing);
    return this.answered(outgoing, received);
  }

  /** What goes on the wire, logged (redacted) as it leaves. */
  private outgoing(req: TransportRequest): Outgoing {
    const url = typeof req.url === 'string' ? new URL(req.url) : req.url;
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxBodyBytes = req.maxBodyBytes ?? this.maxBodyBytes;
    const redact = textRedactor(req.secrets ?? []);
    const formText = req.form === undefined ? undefined : new URLSearchParams(req.form as Record<string, string>).toString();
    this.log(() => `→ ${req.method} ${redact(redactUrl(url))}`);
    if (formText !== undefined) this.log(() => `  form: ${redact(redactForm(formText))}`);
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json, text/plain;q=0.9, */*;q=0.1', ...req.headers };
    if (formText !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    return { method: req.method, url, timeoutMs, maxBodyBytes, redact, formText, headers };
  }

  /**
   * Sends and reads the whole body, at most `maxBodyBytes`, before the deadline. A failure
   * becomes one TransportError (what failed, where, after how long), Ctrl-C an InterruptedError.
   */
  private async receive(req: TransportRequest, out: Outgoing): Promise<Received> {
    const { url, timeoutMs, maxBodyBytes } = out;
    const deadline = AbortSignal.timeout(timeoutMs);
    const interrupt = req.finishOnInterrupt ? req.signal : joinSignals(this.signal, req.signal);
    const signal = interrupt ? AbortSignal.any([interrupt, deadline]) : deadline;

    const started = this.clock();
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let gotHeaders = false;
    let answer: Sent;
    try {
      answer = await this.send(url, out, signal, timeoutMs);
      gotHeaders = true;
      for await (const chunk of answer.body) {
        receivedBytes += chunk.length;
        if (receivedBytes > maxBodyBytes) {
          answer.destroy();
          throw new TransportError(
            `The answer from ${url.host} is larger than ${formatBytes(maxBodyBytes)}; kactl stopped reading it.`,
            'too-large',
            url.host,
          );
        }
        received.push(chunk);
      }
      if (!answer.complete()) throw cutOff(url.host, Buffer.concat(received), out.redact);
    } catch (error) {
      const elapsed = Math.round(this.clock() - started);
      if (interrupt?.aborted) {
        this.log(() => `← interrupted after ${elapsed} ms`);
        throw new InterruptedError();
      }
      const failure =
        error instanceof TransportError
          ? error
          : describeFailure(error, {
              host: url.host,
              timeoutMs,
              timedOut: deadline.aborted,
              gotHeaders,
              partial: Buffer.concat(received),
              redact: out.redact,
            });
      this.log(() => `← failed after ${elapsed} ms: ${failure.message}`);
      throw failure;
    }
    return { answer, body: Buffer.concat(received, receivedBytes), elapsedMs: Math.round(this.clock() - started) };
  }

  /** Sends through the dispatcher passed in, else through Node's HTTP client. */
  private async send(url: URL, out: Outgoing, signal: AbortSignal, timeoutMs: number): Promise<Sent> {
    if (this.dispatcher === undefined) return nodeRequest(this.agents, url, { method: out.method, headers: out.headers, body: out.formText, signal });
    const { undiciRequest } = await import('./undici-parts.js');
    const answer = await undiciRequest(url, {
      dispatcher: this.dispatcher,
      method: out.method,
      headers: out.headers,
      body: out.formText,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return { statusCode: answer.statusCode, headers: answer.headers, body: answer.body, destroy: () => answer.body.destroy(), complete: () => true };
  }

  /** The answer as kactl uses it: logged, its sandbox clock passed on, a redirect refused. */
  private answered(out: Outgoing, { answer, body, elapsedMs }: Received): TransportResponse {
    const { url, redact } = out;
    const status = answer.statusCode;
    const statusText = STATUS_CODES[status] ?? '';
    this.log(() => `← ${status}${statusText === '' ? '' : ` ${statusText}`} in ${elapsedMs} ms, ${body.length} bytes`);
    const flatHeaders = flattenHeaders(answer.headers);
    const sandboxNow = Number(flatHeaders['x-sandbox-now'] ?? NaN);
    if (Number.isSafeInteger(sandboxNow) && sandboxNow > 0) this.onSandboxNow?.(sandboxNow);

    const location = flatHeaders.location;
    if (status >= 300 && status < 400 && location !== undefined && location !== '') {
      const target = resolveLocation(location, url);
      throw new TransportError(
        `${url.host} answered ${status} ${statusText} and points to ${redact(redactUrl(target))}; kactl does not follow redirects.`,
        'redirect',
        url.host,
      );
    }
    return { status, statusText, headers: flatHeaders, body, url: url.href, elapsedMs };
  }

  /**
   * A GET whose answer is read as it arrives (server-sent events): resolves once the headers are
   * in. The answer has no overall deadline; it fails when nothing arrives for `idleMs` (a
   * stream that sends keep-alives stays open) and ends at Ctrl-C as an InterruptedError.
   */
  async stream(req: Pick<TransportRequest, 'url' | 'headers' | 'secrets'> & { idleMs: number }): Promise<TransportStream> {
    const url = typeof req.url === 'string' ? new URL(req.url) : req.url;
    const redact = textRedactor(req.secrets ?? []);
    this.log(() => `→ GET ${redact(redactUrl(url))} (streamed)`);
    const interrupted = (): boolean => this.signal?.aborted === true;
    const fail = (error: unknown, gotHeaders: boolean): Error => {
      if (interrupted()) return new InterruptedError();
      return error instanceof TransportError ? error : describeFailure(error, { host: url.host, timeoutMs: req.idleMs, timedOut: false, gotHeaders, partial: Buffer.alloc(0), redact });
    };
    let answer: Dispatcher.ResponseData;
    try {
      const { Agent, undiciRequest } = await import('./undici-parts.js');
      this.streamAgent ??=
        this.dispatcher ?? new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout: CONNECT_TIMEOUT_MS, ...(this.ca === undefined ? {} : { ca: this.ca }) } });
      answer = await undiciRequest(url, {
        dispatcher: this.streamAgent,
        method: 'GET',
        headers: { 'user-agent': this.userAgent, ...req.headers },
        ...(this.signal ? { signal: this.signal } : {}),
        headersTimeout: this.timeoutMs,
        bodyTimeout: req.idleMs,
      });
    } catch (error) {
      throw fail(error, false);
    }
    this.log(() => `← ${answer.statusCode} (streaming)`);
    const source = answer.body as AsyncIterable<Buffer>;
    async function* body(): AsyncGenerator<Buffer> {
      try {
        for await (const chunk of source) yield chunk;
      } catch (error) {
        throw fail(error, true);
      }
    }
    return { status: answer.statusCode, headers: flattenHeaders(answer.headers), body: body() };
  }

  /** Closes the Transport's own keep-alive connections (not a dispatcher that was passed in). */
  async close(): Promise<void> {
    await this.agents.close();
    if (this.streamAgent !== undefined && this.streamAgent !== this.dispatcher) await this.streamAgent.close();
    this.streamAgent = undefined;
  }

  private log(line: () => string): void {
    if (this.verbose) this.verbose(line());
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'EPROTO',
]);

/** Every `code` found on the error, its `cause` chain and an AggregateError's members. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 5 || value === null || typeof value !== 'object') return;
    const record = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof record.code === 'string') codes.push(record.code);
    visit(record.cause, depth + 1);
    if (Array.isArray(record.errors)) for (const inner of record.errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return codes;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}

interface FailureContext {
  host: string;
  timeoutMs: number;
  timedOut: boolean;
  gotHeaders: boolean;
  partial: Buffer;
  redact: (text: string) => string;
}

/** The sentence for an answer whose body stopped before its end. */
function cutOff(host: string, partial: Buffer, redact: (text: string) => string, cause?: unknown): TransportError {
  const sample = excerpt(partial.toString('utf8'), { redact });
  return new TransportError(`The answer from ${host} was cut off after ${partial.length} bytes${sample === '' ? '' : ` ("${sample}")`}.`, 'truncated', host, cause === undefined ? {} : { cause });
}

/** Turns a failure of Node's HTTP client, undici or the socket into one sentence about what happened, and a kind. */
export function describeFailure(error: unknown, ctx: FailureContext): TransportError {
  const codes = errorCodes(error);
  const has = (...wanted: string[]): boolean => wanted.some((code) => codes.includes(code));
  const make = (message: string, kind: TransportFailureKind): TransportError => new TransportError(message, kind, ctx.host, { cause: error });
  const within = formatSeconds(ctx.timeoutMs);

  if (ctx.timedOut || has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT') || (error as { name?: unknown })?.name === 'TimeoutError') {
    return make(`No answer from ${ctx.host} within ${within}.`, 'timeout');
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', CONNECT_TIMEOUT_CODE)) {
    return make(`Could not connect to ${ctx.host} within ${formatSeconds(CONNECT_TIMEOUT_MS)}.`, 'connect-timeout');
  }
  if (has('ECONNREFUSED')) {
    return make(`Could not connect to ${ctx.host}: connection refused.`, 'refused');
  }
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL')) {
    return make(`Could not find the host ${ctx.host.replace(/:\d+$/, '')} (DNS lookup failed).`, 'dns');
  }
  if (has('EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN')) {
    return make(`Could not reach ${ctx.host}: no route to the host.`, 'unreachable');
  }
  if (codes.some((code) => TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))) {
    return make(`The TLS check of ${ctx.host} failed: ${errorText(error)}.`, 'tls');
  }
  if (ctx.gotHeaders && has('UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'EPIPE', 'UND_ERR_ABORTED')) {
    return cutOff(ctx.host, ctx.partial, ctx.redact, error);
  }
  // Node's client says "socket hang up" when the server closed the connection (a FIN, no reset)
  // before any answer; a real reset is a read or write error of the socket.
  if (has('UND_ERR_SOCKET', 'UND_ERR_CLOSED') || (error instanceof Error && error.message === 'socket hang up')) {
    return make(`${ctx.host} closed the connection without answering.`, 'closed');
  }
  if (has('ECONNRESET', 'EPIPE')) {
    return make(`The connection to ${ctx.host} was reset before an answer arrived.`, 'reset');
  }
  return make(`The request to ${ctx.host} failed: ${ctx.redact(errorText(error))}.`, 'other');
}
