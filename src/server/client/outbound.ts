/**
 * The sandbox's outbound HTTP requests: the client `webhook` call, the `file` download and the
 * app's Discord log hook. They are real requests (undici), with a timeout, a size cap on the
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

export interface OutboundRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Answers larger than this are refused (`too-large`). */
  readonly maxBytes: number;
  /** Follow up to 5 redirects (file downloads); otherwise a 3xx is the answer. */
  readonly followRedirects?: boolean;
  /** The request's own signal (client gone, sandbox closing). */
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
}

export type OutboundResult =
  | { readonly ok: true; readonly status: number; readonly body: Buffer }
  | OutboundFailure;

type OutboundFailure = { readonly ok: false; readonly reason: 'bad-url' | 'network' | 'too-large'; readonly detail: string };

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
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { ok: false, reason: 'bad-url', detail: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'bad-url', detail: `${url.protocol} is not http(s)` };

  const timeoutMs = req.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const agent = new Agent({ connect: { timeout: timeoutMs }, keepAliveTimeout: 1 });
  const dispatcher: Dispatcher = req.followRedirects === true ? agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS })) : agent;
  try {
    const answer = await request(url, {
      dispatcher,
      method: req.method,
      headers: { ...req.headers },
      body: req.body,
      signal: AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
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
    return { ok: false, reason: 'network', detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  } finally {
    agent.destroy().catch(() => undefined);
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
