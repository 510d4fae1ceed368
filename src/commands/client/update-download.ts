/**
 * Streaming a download to a file with a progress bar (stderr, terminal only) and its SHA-256.
 * Written to `FILE.part` first and renamed when complete, so a failed download leaves nothing
 * that looks like the program.
 */
import { createHash } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { NetworkError, UsageError } from '../../errors.js';
import { createProgress } from '../../io/progress.js';

export interface SavedDownload {
  readonly bytes: number;
  readonly sha256: string;
}

async function refuseExisting(path: string, force: boolean): Promise<void> {
  if (force) return;
  const found = await stat(path).then(() => true, () => false);
  if (found) throw new UsageError(`${path} exists; add --force to overwrite it.`);
}

export async function saveDownload(ctx: Context, url: URL, path: string, force: boolean): Promise<SavedDownload> {
  await refuseExisting(path, force);
  // The profile's timeout bounds the wait for the answer to start and, after that, every wait
  // for the next piece of the body: a long transfer is fine, a server that stalls is not.
  const timeoutSeconds = (await ctx.settings()).timeout.value;
  const abort = new AbortController();
  let timer = setTimeout(() => abort.abort(), timeoutSeconds * 1000);
  const rearm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => abort.abort(), timeoutSeconds * 1000);
  };
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal: abort.signal });
  } catch (error) {
    const why = abort.signal.aborted ? `no answer within ${timeoutSeconds} s` : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    clearTimeout(timer);
    throw new NetworkError(`Cannot download ${url.href}: ${why}.`);
  }
  if (!response.ok || response.body === null) {
    clearTimeout(timer);
    abort.abort();
    throw new NetworkError(`The download failed: ${url.href} answered HTTP ${response.status}.`);
  }
  rearm();
  const total = Number(response.headers.get('content-length') ?? '0');
  const progress = createProgress(ctx.io, { total: total > 0 ? total : 0, label: 'Downloading', enabled: total > 0 });
  const hash = createHash('sha256');
  const partial = `${path}.part`;
  const file = await open(partial, 'w').catch((error: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    abort.abort();
    throw new UsageError(`Cannot write ${path} (${error.code ?? error.message}).`);
  });
  let bytes = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      await file.write(chunk);
      bytes += chunk.length;
      progress.update(bytes);
      rearm();
    }
    await file.close();
    if (total > 0 && bytes !== total) throw new NetworkError(`The download stopped early: ${bytes} of ${total} bytes.`);
    await rename(partial, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    if (error instanceof NetworkError) throw error;
    if (abort.signal.aborted) throw new NetworkError(`The download of ${url.href} stalled: nothing arrived for ${timeoutSeconds} s after ${bytes} bytes.`);
    throw new NetworkError(`The download of ${url.href} failed: ${(error as Error).message}.`);
  } finally {
    clearTimeout(timer);
    progress.stop();
  }
  return { bytes, sha256: hash.digest('hex') };
}
