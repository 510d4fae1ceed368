/**
 * Streaming a download to a file with a progress bar (stderr, terminal only) and its SHA-256.
 * Written to a temporary file beside the target first and put in place when complete
 * (src/io/place-file.ts: created exclusively under a random name, never over a file that appeared
 * meanwhile without --force), so a failed or interrupted download leaves nothing that looks like
 * the program. Ctrl-C stops the transfer and removes the temporary file at once.
 */
import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import { InterruptedError, KactlError, NetworkError } from '../../errors.js';
import { createProgress } from '../../io/progress.js';
import { createBeside, placeFile, refuseExisting, saveFailure, type PendingFile } from '../../io/place-file.js';

export interface SavedDownload {
  readonly bytes: number;
  readonly sha256: string;
}

export async function saveDownload(ctx: Context, url: URL, path: string, force: boolean): Promise<SavedDownload> {
  await refuseExisting(path, force);
  // The profile's timeout bounds the wait for the answer to start and, after that, every wait
  // for the next piece of the body: a long transfer is fine, a server that stalls is not.
  const timeoutSeconds = (await ctx.settings()).timeout.value;
  const stalled = new AbortController();
  const signal = AbortSignal.any([stalled.signal, ctx.signal]);
  let timer = setTimeout(() => stalled.abort(), timeoutSeconds * 1000);
  const rearm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stalled.abort(), timeoutSeconds * 1000);
  };
  const interrupted = (): InterruptedError => new InterruptedError('Interrupted; nothing was saved.');
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal });
  } catch (error) {
    clearTimeout(timer);
    if (ctx.signal.aborted) throw interrupted();
    const why = stalled.signal.aborted ? `no answer within ${timeoutSeconds} s` : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    throw new NetworkError(`Cannot download ${url.href}: ${why}.`);
  }
  if (!response.ok || response.body === null) {
    clearTimeout(timer);
    stalled.abort();
    throw new NetworkError(`The download failed: ${url.href} answered HTTP ${response.status}.`);
  }
  rearm();
  const total = Number(response.headers.get('content-length') ?? '0');
  const hash = createHash('sha256');
  let pending: PendingFile;
  try {
    pending = await createBeside(path);
  } catch (error) {
    clearTimeout(timer);
    stalled.abort();
    throw saveFailure(error, path, ctx);
  }
  // The first Ctrl-C removes the temporary file there and then; the loop below then stops.
  const discard = (): void => pending.discard();
  ctx.signal.addEventListener('abort', discard, { once: true });
  const progress = createProgress(ctx.io, { total: total > 0 ? total : 0, label: 'Downloading', enabled: total > 0 });
  let bytes = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      await pending.handle.write(chunk);
      bytes += chunk.length;
      progress.update(bytes);
      rearm();
    }
    await pending.handle.close();
    if (total > 0 && bytes !== total) throw new NetworkError(`The download stopped early: ${bytes} of ${total} bytes.`);
    if (ctx.signal.aborted) throw interrupted();
    await placeFile(pending.path, path, force);
  } catch (error) {
    await pending.handle.close().catch(() => undefined);
    pending.discard();
    if (ctx.signal.aborted) throw interrupted();
    if (error instanceof KactlError) throw error;
    if (stalled.signal.aborted) throw new NetworkError(`The download of ${url.href} stalled: nothing arrived for ${timeoutSeconds} s after ${bytes} bytes.`);
    // The file system's refusals (a full disk) name the file; anything else is the transfer's.
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') throw saveFailure(error, path, ctx);
    throw new NetworkError(`The download of ${url.href} failed: ${(error as Error).message}.`);
  } finally {
    ctx.signal.removeEventListener('abort', discard);
    clearTimeout(timer);
    progress.stop();
  }
  return { bytes, sha256: hash.digest('hex') };
}
