/**
 * The sandbox's outbound HTTP requests: the client `webhook` call, the `file` download, the
 * app's Discord log hook, and the customer panel's file download (which streams the body it
 * opens with `openOutbound`). They are real requests (undici), with a timeout, a size cap on the
 * answer, http(s) only. Loopback and private addresses are allowed on purpose: the sandbox
 * exists for offline testing, and a tester's webhook or file server usually runs on the same
 * machine.
 *
 * Each request gets its own Agent, closed once the answer is read, so no keep-alive socket to
 * a tester's server outlives the call (or keeps a stopping sandbox waiting).
 */
import { Agent, interceptors, request } from 'undici';
import type { Dispatcher } from 'undici';

/** Whole exchange, connect included. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

export interface OutboundOpening {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Follow up to 5 redirects (file downloads); otherwise a 3xx is the answer. */
  readonly followRedirects?: boolean;
  /** The request's own signal (client gone, sandbox closing). */
  readonly signal: AbortSignal;
  /** Bounds the connect, the wait for the headers and each wait for the body; by default the whole exchange too. */
  readonly timeoutMs?: number;
  /** False: no bound on the whole exchange (a long download streamed on), only on each wait. */
  readonly deadline?: boolean;
}

export interface OutboundRequest extends OutboundOpening {
  /** Answers larger than this are refused (`too-large`). */
  readonly maxBytes: number;
}

export type OutboundResult =
  | { readonly ok: true; readonly status: number; readonly body: Buffer }
  | OutboundFailure;

type OutboundFailure = { readonly ok: false; readonly reason: 'bad-url' | 'network' | 'too-large'; readonly detail: string };

/** An answer whose headers are in and whose body is not read yet; `close()` lets its connection go once the caller is done with it. */
export type OpenedOutbound = { readonly ok: true; readonly answer: Dispatcher.ResponseData; readonly close: () => void } | OutboundFailure;

/**
 * Starts the request and returns once the answer's headers are in, leaving its body to the
 * caller; never throws. The agent is the request's own (see above): `close()` destroys it.
 */
export async function openOutbound(req: OutboundOpening): Promise<OpenedOutbound> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { ok: false, reason: 'bad-url', detail: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'bad-url', detail: `${url.protocol} is not http(s)` };

  const timeoutMs = req.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const agent = new Agent({ connect: { timeout: timeoutMs }, keepAliveTimeout: 1 });
  const close = (): void => void agent.destroy().catch(() => undefined);
  const dispatcher: Dispatcher = req.followRedirects === true ? agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS })) : agent;
  try {
    const answer = await request(url, {
      dispatcher,
      method: req.method,
      headers: { ...req.headers },
      body: req.body,
      signal: req.deadline === false ? req.signal : AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return { ok: true, answer, close };
  } catch (err) {
    close();
    return networkFailure(err);
  }
}

function networkFailure(err: unknown): OutboundFailure {
  return { ok: false, reason: 'network', detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

/** Sends the request and reads the whole answer; never throws. */
export async function sendOutbound(req: OutboundRequest): Promise<OutboundResult> {
  const result = await sendOutboundChunks(req);
  return result.ok ? { ok: true, status: result.status, body: Buffer.concat(result.chunks, result.size) } : result;
}

/**
 * As sendOutbound, with the answer left in the pieces it arrived in: a large file is then held
 * once, not once in pieces and once joined.
 */
export async function sendOutboundChunks(
  req: OutboundRequest,
): Promise<{ readonly ok: true; readonly status: number; readonly chunks: readonly Buffer[]; readonly size: number } | OutboundFailure> {
  const opened = await openOutbound(req);
  if (!opened.ok) return opened;
  const { answer } = opened;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > req.maxBytes) {
        answer.body.destroy();
        return { ok: false, reason: 'too-large', detail: `answer over ${req.maxBytes} bytes` };
      }
      chunks.push(chunk);
    }
    return { ok: true, status: answer.statusCode, chunks, size };
  } catch (err) {
    return networkFailure(err);
  } finally {
    opened.close();
  }
}

/**
 * PHP's urldecode(): `+` is a space, a valid `%XX` is that byte, anything else stays as it is;
 * the bytes are read as UTF-8. Lenient where decodeURIComponent throws, as the source is.
 */
export function phpUrlDecode(text: string): string {
  const bytes: number[] = [];
  const source = Buffer.from(text, 'utf8');
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] ?? 0;
    if (byte === 0x2b) {
      bytes.push(0x20);
    } else if (byte === 0x25 && i + 2 < source.length && isHex(source[i + 1]) && isHex(source[i + 2])) {
      bytes.push(parseInt(String.fromCharCode(source[i + 1] ?? 0, source[i + 2] ?? 0), 16));
      i += 2;
    } else {
      bytes.push(byte);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}
