/**
 * A file download from the customer panel: the file's stored URL is fetched and its body streamed
 * to the signed-in user as an attachment, never held whole in memory. Same rules as the client
 * `file` call (src/server/client/file.ts): http(s) only, redirects followed, an origin answering
 * 403/404 or unreachable is "no longer works", 75 MiB at most. Timeouts bound the wait for the
 * headers and each wait for the body, so a long download is fine and a stalled origin is not.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import { FILE_MAX_BYTES, FILE_MESSAGES } from '../client/file.js';
import { openOutbound } from '../client/outbound.js';
import { html, renderPage } from '../client/page-layout.js';
import type { FileRow } from '../domain/rows.js';
import type { PageContext, PageReply } from '../http/pages.js';

function broken(status: number, message: string): PageReply {
  return renderPage({ title: 'Download failed', status, body: html`<p role="alert">${message}</p>` });
}

/** `attachment` with a plain ASCII name and the exact name in RFC 5987 form. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Passes bytes through and fails once more than `max` went by. */
function capped(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? new Error(`more than ${max} bytes`) : null, chunk);
    },
  });
}

export async function streamPanelFile(ctx: PageContext, file: FileRow): Promise<PageReply> {
  // No deadline on the whole download: only each wait is bounded.
  const opened = await openOutbound({ url: file.url, method: 'GET', headers: { 'user-agent': 'KeyAuth' }, followRedirects: true, signal: ctx.signal, deadline: false });
  if (!opened.ok) {
    if (opened.reason === 'network') ctx.log(`panel file ${file.id}: ${opened.detail}`);
    return broken(502, FILE_MESSAGES.broken);
  }
  const { answer, close: release } = opened;
  // Errors of the origin's body are handled by the pipeline below (or nobody reads it any more).
  answer.body.on('error', () => undefined);
  const length = Number(answer.headers['content-length'] ?? Number.NaN);
  if (answer.statusCode === 403 || answer.statusCode === 404 || answer.statusCode >= 500 || (Number.isFinite(length) && length > FILE_MAX_BYTES)) {
    answer.body.destroy();
    release();
    return broken(502, Number.isFinite(length) && length > FILE_MAX_BYTES ? FILE_MESSAGES.tooLarge : FILE_MESSAGES.broken);
  }
  const body = capped(FILE_MAX_BYTES);
  // A failure on either side destroys both; the server's own pipeline then cuts the answer short.
  pipeline(answer.body, body, release);
  const stream: Readable = body;
  return {
    body: '',
    contentType: 'application/octet-stream',
    headers: {
      'content-disposition': attachmentHeader(file.name),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      ...(Number.isFinite(length) ? { 'content-length': String(length) } : {}),
    },
    stream,
  };
}
