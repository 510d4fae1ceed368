/**
 * `kactl client update [--out FILE] [--force]`: what a protected program does when init says
 * `invalidver` — follow the app's download link. Sends init with the profile's app version; an
 * answer of `invalidver` carries the link, which is downloaded (a progress bar on stderr when
 * it is a terminal), saved, and described by its size and SHA-256. A current version downloads
 * nothing. A failed download exits 4 and leaves no partial file behind; Ctrl-C exits 130 and
 * leaves none either. A name the server chose is used only when it is a plain one (letters,
 * digits, no leading dot).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiFailure, NetworkError, UsageError } from '../../errors.js';

interface UpdateOptions {
  out?: string;
  force?: boolean;
}

export function registerClientUpdate(group: Command, ctx: Context): void {
  group
    .command('update')
    .description("download the app's new version when the server says this one is outdated")
    .option('--out <file>', 'save the download here (default: the name at the end of the link)')
    .option('--force', 'overwrite FILE if it exists')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client update --app-version 1.0            # as a 1.0 program would
  $ kactl client update --out loader-new.exe --force`,
    )
    .action(async (options: UpdateOptions) => {
      await clientUpdateRun(ctx, options);
    });
}

/** The download link of an `invalidver` answer; undefined when init succeeded (up to date). */
async function downloadLink(ctx: Context): Promise<{ link: string | undefined; version: string }> {
  const api = await ctx.clientApi();
  const body = await api.init({}, { acceptFailure: true });
  const appinfo = typeof body.appinfo === 'object' && body.appinfo !== null ? (body.appinfo as { version?: unknown }) : {};
  const version = typeof appinfo.version === 'string' ? appinfo.version : '';
  if (body.success === true) return { link: undefined, version };
  const message = typeof body.message === 'string' ? body.message : 'init failed';
  if (message !== 'invalidver') throw new ApiFailure(message, body, 200);
  const link = typeof body.download === 'string' ? body.download.trim() : '';
  if (link === '') throw new ApiFailure('invalidver: this version is outdated, but the app has no download link set.', body, 200);
  return { link, version };
}

/**
 * What a name the server chose may be: letters and digits of any script, spaces and `. _ - + ( )`,
 * starting with a letter or digit (no `.bashrc`, no `..`, nothing hidden), up to 128 characters.
 * No control characters (a `%0A` or `%1B` in the link), no path separators, no shell or
 * Windows-reserved punctuation.
 */
const SAFE_SERVER_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._+()-]{0,127}$/u;

/** The name at the end of the link, when it is one safe to create in the current folder. */
export function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    throw new UsageError(`The download link ends in "${last}", which is not a valid percent-encoded file name; choose one with --out FILE.`);
  }
  if (name === '') return 'download';
  if (!SAFE_SERVER_NAME.test(name) || /[. ]$/.test(name)) {
    throw new UsageError(
      `The server's file name ${JSON.stringify(name)} is not one kactl saves under (letters, digits, spaces and . _ - + ( ), starting with a letter or digit); choose a name with --out FILE.`,
    );
  }
  return name;
}

export async function clientUpdateRun(ctx: Context, options: UpdateOptions): Promise<void> {
  const { link } = await downloadLink(ctx);
  if (link === undefined) {
    if (ctx.output.wantsJson) return ctx.output.json({ success: true, updated: false });
    ctx.output.success('This version is current; nothing to download.');
    return;
  }
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new NetworkError(`The download link is not a URL: ${JSON.stringify(link)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NetworkError(`The download link is not http(s): ${url.href}`);
  ctx.output.note(`This version is outdated; downloading ${url.href}`);
  const out = options.out ?? fileNameOf(url);
  const { saveDownload } = await import('./update-download.js');
  const saved = await saveDownload(ctx, url, out, options.force === true);
  if (ctx.output.wantsJson) return ctx.output.json({ success: true, updated: true, url: url.href, path: out, bytes: saved.bytes, sha256: saved.sha256 });
  ctx.output.record({ path: out, bytes: saved.bytes, sha256: saved.sha256 });
  ctx.output.success(`Saved ${saved.bytes} bytes to ${out}.`);
}

