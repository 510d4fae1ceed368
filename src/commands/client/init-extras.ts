/**
 * What `kactl client init` adds for the app's security settings: the program hash (`hash`, the
 * lower-case MD5 of the program file, as the C# and Go SDKs send it) and the token file
 * (`token`, the file's text trimmed; `thash`, the lower-case SHA-256 of the file's bytes).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

export interface InitExtraOptions {
  readonly hash?: string;
  readonly hashFile?: string;
  readonly tokenFile?: string;
}

async function readInput(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : 'it cannot be read';
    throw new UsageError(`${flag} ${path}: ${why}.`);
  }
}

/** The MD5 the SDKs send for a program file, lower-case hex. */
export function programHash(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

export async function initExtras(options: InitExtraOptions): Promise<Record<string, string>> {
  const extra: Record<string, string> = {};
  if (options.hash !== undefined && options.hashFile !== undefined) throw new UsageError('Give --hash or --hash-file, not both.');
  if (options.hash !== undefined) {
    if (!/^[0-9a-fA-F]{32}$/.test(options.hash)) throw new UsageError('--hash takes an MD5 hash: 32 hex digits.');
    extra['hash'] = options.hash.toLowerCase();
  }
  if (options.hashFile !== undefined) extra['hash'] = programHash(await readInput(options.hashFile, '--hash-file'));
  if (options.tokenFile !== undefined) {
    const bytes = await readInput(options.tokenFile, '--token-file');
    const token = bytes.toString('utf8').trim();
    if (token === '') throw new UsageError(`--token-file ${options.tokenFile}: the file is empty.`);
    extra['token'] = token;
    extra['thash'] = createHash('sha256').update(bytes).digest('hex');
  }
  return extra;
}
