/**
 * The server's own count of the keys a `licenses create` run made. An `add` whose answer was
 * lost (a timeout, a reset connection, a 5xx) may still have made its keys; the run reads the
 * key list before its first call and again after such a failure, and the keys that appeared
 * with the run's level and note, that no answer named, are the ones the lost answer held.
 */
import type { SellerApi } from './seller-api.js';
import { findSellerOp } from './seller-catalog/index.js';
import { responseOptions } from './seller-call-options.js';

interface KeyRow {
  readonly key: string;
  readonly level: string;
  readonly note: string;
  readonly status: string;
  readonly genby: string;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');

/** Every key row on the server (one `fetchallkeys` call, paced like any other). */
async function keyRows(api: SellerApi): Promise<KeyRow[]> {
  const list = findSellerOp('fetchallkeys')!;
  const body = await api.call(list.type, {}, { effect: 'read', ...responseOptions(list) });
  const rows = Array.isArray(body.keys) ? (body.keys as Record<string, unknown>[]) : [];
  return rows
    .filter((row) => row !== null && typeof row === 'object' && typeof row.key === 'string')
    .map((row) => ({ key: row.key as string, level: text(row.level), note: text(row.note), status: text(row.status), genby: text(row.genby) }));
}

/** The keys on the server now. */
export async function serverKeys(api: SellerApi): Promise<Set<string>> {
  return new Set((await keyRows(api)).map((row) => row.key));
}

/** `1` and `01` are one level to the server. */
function sameLevel(a: string, b: string): boolean {
  return a === b || (/^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) === Number(b));
}

/**
 * The unused keys made since `before` with the run's level, note and owner that no answer named
 * (`known`): what the server made in calls whose answers were lost.
 */
export async function keysMadeUnseen(api: SellerApi, before: ReadonlySet<string>, known: ReadonlySet<string>, params: Readonly<Record<string, string>>): Promise<string[]> {
  const level = params.level ?? '1';
  const note = params.note ?? '';
  return (await keyRows(api))
    .filter((row) => !before.has(row.key) && !known.has(row.key))
    .filter((row) => row.status === 'Not Used' && sameLevel(row.level, level) && row.note === note && (params.owner === undefined || row.genby === params.owner))
    .map((row) => row.key);
}
