/**
 * File records: a 6-digit id and a URL the client `file` call fetches live. Downloading and
 * measuring belong to the handlers.
 */
import type { Store } from '../store/store.js';
import { DIGITS, randomString } from './random.js';
import type { FileRow } from './rows.js';

export interface NewFile {
  readonly url: string;
  /** Default: the last path segment of the URL. */
  readonly name?: string | undefined;
  /** Human-readable, e.g. `1.5 MB`. */
  readonly size: string;
  /** Only validated sessions may download it. Default true. */
  readonly authed?: boolean | undefined;
}

/** The last path segment of a URL (`https://x/a/b.exe?q` → `b.exe`). */
export function fileNameFromUrl(url: string): string {
  try {
    const segments = new URL(url).pathname.split('/').filter((s) => s !== '');
    return decodeURIComponent(segments.at(-1) ?? '');
  } catch {
    return '';
  }
}

/** `1536` → `1.5 KB` (1024-based, one decimal, as the dashboard shows sizes). */
export function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${text} ${units[unit] ?? 'B'}`;
}

/** Creates a file record with a fresh random 6-digit id. */
export function createFile(store: Store, appId: number, input: NewFile, now: number): FileRow {
  return store.tx(() => {
    let id: string;
    do id = randomString(6, DIGITS);
    while (findFile(store, appId, id) !== undefined);
    store.run('INSERT INTO files (appId, id, name, url, size, uploaddate, authed) VALUES (?, ?, ?, ?, ?, ?, ?)', appId, id, input.name ?? fileNameFromUrl(input.url), input.url, input.size, now, input.authed === false ? 0 : 1);
    const row = findFile(store, appId, id);
    if (row === undefined) throw new Error('File vanished right after its insert');
    return row;
  });
}

export function findFile(store: Store, appId: number, id: string): FileRow | undefined {
  return store.get<FileRow>('SELECT * FROM files WHERE appId = ? AND id = ?', appId, id);
}

export function listFiles(store: Store, appId: number): FileRow[] {
  return store.all<FileRow>('SELECT * FROM files WHERE appId = ? ORDER BY pk', appId);
}

/** Changes a file's URL, name, size and authed flag. False when there is no such file. */
export function updateFile(store: Store, appId: number, id: string, change: { url: string; name: string; size: string; authed: boolean }): boolean {
  return store.run('UPDATE files SET url = ?, name = ?, size = ?, authed = ? WHERE appId = ? AND id = ?', change.url, change.name, change.size, change.authed ? 1 : 0, appId, id).changes > 0;
}

export function deleteFile(store: Store, appId: number, id: string): boolean {
  return store.run('DELETE FROM files WHERE appId = ? AND id = ?', appId, id).changes > 0;
}

export function deleteAllFiles(store: Store, appId: number): number {
  return store.run('DELETE FROM files WHERE appId = ?', appId).changes;
}
