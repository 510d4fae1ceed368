/**
 * Live completion values (subscription, channel, file, variable and user names, license keys…)
 * from the active profile's seller API, cached for a minute in the data folder so pressing Tab
 * twice asks the server once (secret values, license keys and session ids, are never cached).
 * Completion must never hang or ask: one request, no retry, no pacing wait (a used-up budget or
 * a rate limit offers nothing), ended by the caller's deadline, and no prompt.
 *
 * The server chooses these values, so only those a shell can take as one plain word are offered:
 * none with a control character (a newline splits it, ESC drives the terminal) or a leading `-`
 * (`--seller-key=…` would be read as an option). The completion scripts quote the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { hasControl } from '../../io/format.js';
import { responseOptions } from '../seller/call-options.js';

/** How long a fetched list is reused. */
export const CACHE_SECONDS = 60;

interface CacheEntry {
  readonly at: number;
  readonly values: string[];
}

/** Whether a value may be offered to the shell as a candidate at all. */
export function offerable(value: string): boolean {
  return value !== '' && !hasControl(value);
}

/** A value the server chose: offerable, and not something the command line would take for an option. */
function offerableServerValue(value: string): boolean {
  return offerable(value) && !value.startsWith('-');
}

function cacheFile(ctx: Context, profile: string, type: string, field: string): string {
  return path.join(ctx.dataDir, 'completion', `${encodeURIComponent(profile)}.${type}${field === '' ? '' : `.${encodeURIComponent(field)}`}.json`);
}

function readCache(file: string, nowMs: number): string[] | undefined {
  try {
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheEntry;
    return nowMs - entry.at < CACHE_SECONDS * 1000 && Array.isArray(entry.values) ? entry.values : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, entry: CacheEntry): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
  } catch {
    // A cache that cannot be written only costs a request next time.
  }
}

/** Which values of the list: a field of each record (default: the first column), and whether they are secret. */
export interface LiveValueOptions {
  readonly field?: string | undefined;
  /** License keys, session ids: offered, but never written to the cache on disk. */
  readonly secret?: boolean | undefined;
}

export async function liveValues(ctx: Context, list: SellerOp, signal: AbortSignal, options: LiveValueOptions = {}): Promise<string[]> {
  if (list.response.kind !== 'list') return [];
  const { key, columns } = list.response;
  const first = options.field ?? columns[0]?.key;
  if (first === undefined) return [];
  try {
    const settings = await ctx.settings();
    const profile = settings.profile.value ?? `url:${settings.baseUrl.value ?? 'none'}`;
    const file = options.secret === true ? undefined : cacheFile(ctx, profile, list.type, options.field ?? '');
    const cached = file === undefined ? undefined : readCache(file, ctx.now());
    if (cached) return cached;
    const api = await ctx.sellerApi({ onWait: () => undefined });
    const body = await api.call(list.type, {}, { effect: 'read', noWait: true, signal, ...responseOptions(list) });
    const rows = Array.isArray(body[key]) ? (body[key] as unknown[]) : [];
    const values = rows
      .map((row) => (typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[first] : row))
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map(String)
      .filter(offerableServerValue);
    if (file !== undefined) writeCache(file, { at: ctx.now(), values });
    return values;
  } catch {
    return [];
  }
}
