/**
 * Measuring a file at a URL, as the real server does for `upload` and `editfile`: download it
 * (following redirects), count the bytes, keep nothing. Stops early past the size limit, and
 * gives up after a timeout or when the request is aborted (client gone, sandbox closing).
 */
import { Agent, interceptors, request, type Dispatcher } from 'undici';

/** The page's limit: 75 MB. */
export const MAX_FILE_BYTES = 75 * 1024 * 1024;
const TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

export type Measured =
  | { readonly ok: true; readonly bytes: number }
  /** The final answer was not 200; `status` 0 = no answer at all (refused, reset, timed out), as PHP's curl reports it. */
  | { readonly ok: false; readonly reason: 'status'; readonly status: number }
  | { readonly ok: false; readonly reason: 'too-large' };

/** Stops reading a body we do not want; undici reports that as an abort error, which is expected here. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export async function measureUrl(url: URL, signal: AbortSignal, maxBytes = MAX_FILE_BYTES): Promise<Measured> {
  const agent = new Agent({ connect: { timeout: TIMEOUT_MS }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  try {
    const res = await request(url, { method: 'GET', dispatcher, signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) });
    if (res.statusCode !== 200) {
      discard(res.body);
      return { ok: false, reason: 'status', status: res.statusCode };
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      discard(res.body);
      return { ok: false, reason: 'too-large' };
    }
    let bytes = 0;
    for await (const chunk of res.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > maxBytes) {
        discard(res.body);
        return { ok: false, reason: 'too-large' };
      }
    }
    return { ok: true, bytes };
  } catch {
    return { ok: false, reason: 'status', status: 0 };
  } finally {
    await agent.destroy();
  }
}
