/**
 * `file` (docs/protocol/client-api.md §4.17): the sandbox fetches the file's stored URL (following
 * redirects) on every call and answers its bytes as lowercase hex in `contents`.
 *
 * An origin answering 403 or 404, and an origin that cannot be reached, give the source's
 * `File no longer works…` message; any other status is served as the body it came with, as
 * the source does. Files over 75 MiB (the largest upload the real service accepts) are refused.
 */
import { findFile } from '../domain/files.js';
import { because, fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withSession } from '../dispatch/session-guard.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import type { FileRow } from '../domain/rows.js';
import { HexField } from '../dispatch/hex-field.js';
import { sendOutboundChunks } from './outbound.js';

export const FILE_MAX_BYTES = 75 * 1024 * 1024;
/**
 * Downloads served at once per sandbox, from the fetch until the answer is sent (or the client
 * is gone). Each holds the file's bytes in memory all that time, so a burst of large downloads,
 * or clients that read slowly, could exhaust memory; past this many the call is refused at once
 * and the client may try again.
 */
export const MAX_CONCURRENT_DOWNLOADS = 2;
const downloadsInFlight = new WeakMap<object, number>();

export const FILE_MESSAGES = {
  notFound: 'File not Found',
  broken: 'File no longer works, please notify the application developer.',
  tooLarge: 'File is larger than 75 MB, the largest file the service serves.',
  busy: 'Too many file downloads at once, try again in a few seconds.',
  done: 'File download successful',
} as const;

const file = withSession(async (ctx, params) => {
  const fileid = params.get('fileid');
  const row = fileid === undefined ? undefined : findFile(ctx.store, ctx.app.id, fileid);
  if (row === undefined) return because(fail(FILE_MESSAGES.notFound), fileid === undefined ? 'no fileid was sent' : `the app has no file ${fileid}`);
  if (row.authed && !ctx.session.validated) return sessionUnauthed(ctx, `file ${row.id} needs a logged-in session`);

  const inFlight = downloadsInFlight.get(ctx.store) ?? 0;
  if (inFlight >= MAX_CONCURRENT_DOWNLOADS) return because(fail(FILE_MESSAGES.busy), `${inFlight} downloads are running; the sandbox serves ${MAX_CONCURRENT_DOWNLOADS} at once`);
  downloadsInFlight.set(ctx.store, inFlight + 1);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    downloadsInFlight.set(ctx.store, (downloadsInFlight.get(ctx.store) ?? 1) - 1);
  };
  try {
    const answer = await download(ctx, row, release);
    // A successful answer keeps its slot until its bytes are sent (the HexField frees it).
    if (!answer.success) release();
    return answer;
  } catch (err) {
    release();
    throw err;
  }
});

async function download(ctx: HandlerContext, row: FileRow, release: () => void): Promise<Reply> {
  const result = await sendOutboundChunks({ url: row.url, method: 'GET', headers: { 'user-agent': 'KeyAuth' }, maxBytes: FILE_MAX_BYTES, followRedirects: true, signal: ctx.signal });
  if (!result.ok) {
    ctx.log(`file ${row.id}: ${result.reason} (${result.detail})`);
    return because(fail(result.reason === 'too-large' ? FILE_MESSAGES.tooLarge : FILE_MESSAGES.broken), `fetching file ${row.id}'s URL failed: ${result.reason}`);
  }
  if (result.status === 403 || result.status === 404) return because(fail(FILE_MESSAGES.broken), `file ${row.id}'s URL answered ${result.status}`);
  // Written into the answer as hex while it is sent (src/server/http/streamed-body.ts).
  return ok(FILE_MESSAGES.done, { contents: new HexField(result.chunks, release) });
}

export const fileHandlers: HandlerTable = { file };
