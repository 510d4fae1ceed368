/**
 * `kactl client file download ID [--out PATH] [--force]`: fetch one of the app's files through
 * the server (`file`; the bytes come hex-encoded in `contents`, docs/protocol/client-api.md §4.17). To a file
 * with `--out` (never over an existing one without --force), else to stdout — unless stdout is a
 * terminal and the bytes are not text.
 *
 * `-o` is the output format here as everywhere (`-o json` prints the answer); the file goes to
 * `--out`, which has no short form so that nobody writes a file named `json`.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { NetworkError, UsageError } from '../../errors.js';
import type { PendingFile } from '../../io/place-file.js';

interface DownloadOptions {
  out?: string;
  force?: boolean;
}

export function registerClientFile(group: Command, ctx: Context): void {
  group
    .command('file')
    .description("the app's files")
    .command('download')
    .description('download a file through the server')
    .addArgument(completeFrom(new Argument('<id>', 'file id (6 digits)'), { kind: 'seller-list', list: 'fetchallfiles' }))
    .option('--out <path>', 'write the file here instead of stdout')
    .option('--force', 'overwrite PATH if it exists')
    .addHelpText('after', '\nExamples:\n  $ kactl client file download 482913 --out app.zip\n  $ kactl client file download 482913 > app.zip')
    .action(async (id: string, options: DownloadOptions) => {
      await fileDownloadRun(ctx, id, options);
    });
}

/** Control bytes other than tab, newline and carriage return: not something to print. */
function looksBinary(bytes: Buffer): boolean {
  return bytes.some((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f);
}

/**
 * Writes `bytes` at `out` through a temporary file created exclusively beside it
 * (src/io/place-file.ts): a symbolic link planted at `out` is never written through, even with
 * --force, and a file that appears there meanwhile is not overwritten without it.
 */
async function saveBytes(ctx: Context, out: string, bytes: Buffer, force: boolean): Promise<void> {
  const { createBeside, placeFile, refuseExisting, saveFailure } = await import('../../io/place-file.js');
  await refuseExisting(out, force);
  let pending: PendingFile | undefined;
  try {
    pending = await createBeside(out);
    try {
      await pending.handle.writeFile(bytes);
    } finally {
      await pending.handle.close();
    }
    await placeFile(pending.path, out, force);
  } catch (error) {
    pending?.discard();
    throw saveFailure(error, out, ctx);
  }
}

async function fileDownloadRun(ctx: Context, id: string, options: DownloadOptions): Promise<void> {
  const body = await (await ctx.clientApi()).call('file', { fileid: id });
  if (ctx.output.wantsJson && options.out === undefined) return ctx.output.json(body);
  const hex = typeof body.contents === 'string' ? body.contents : '';
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new NetworkError('The server\'s file answer has no hex "contents".');
  const bytes = Buffer.from(hex, 'hex');
  if (options.out === undefined) {
    if (ctx.io.isStdoutTTY && looksBinary(bytes)) throw new UsageError(`File ${id} is binary (${bytes.length} bytes); save it with --out PATH or redirect stdout.`);
    ctx.io.out(bytes);
    return;
  }
  await saveBytes(ctx, options.out, bytes, options.force === true);
  if (ctx.output.wantsJson) return ctx.output.json({ ...body, contents: undefined, path: options.out, bytes: bytes.length });
  ctx.output.success(`Saved ${bytes.length} bytes to ${options.out}.`);
}
