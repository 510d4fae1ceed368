/**
 * Live completion values (subscription, channel and file names) from the active profile's
 * seller API, cached for a minute in the data folder so pressing Tab twice asks the server once.
 * A short timeout and no prompt: completion must never hang or ask.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { responseOptions } from '../../api/seller-call-options.js';

/** How long a fetched list is reused. */
export const CACHE_SECONDS = 60;

interface CacheEntry {
  readonly at: number;
  readonly values: string[];
}

function cacheFile(ctx: Context, profile: string, type: string): string {
  return path.join(ctx.dataDir, 'completion', `${encodeURIComponent(profile)}.${type}.json`);
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

export async function liveValues(ctx: Context, list: SellerOp): Promise<string[]> {
  if (list.response.kind !== 'list') return [];
  const { key, columns } = list.response;
  const first = columns[0]?.key;
  if (first === undefined) return [];
  try {
    const settings = await ctx.settings();
    const profile = settings.profile.value ?? `url:${settings.baseUrl.value ?? 'none'}`;
    const file = cacheFile(ctx, profile, list.type);
    const cached = readCache(file, ctx.now());
    if (cached) return cached;
    const api = await ctx.sellerApi({ onWait: () => undefined });
    const body = await api.call(list.type, {}, { effect: 'read', ...responseOptions(list) });
    const rows = Array.isArray(body[key]) ? (body[key] as unknown[]) : [];
    const values = rows
      .map((row) => (typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[first] : row))
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map(String);
    writeCache(file, { at: ctx.now(), values });
    return values;
  } catch {
    return [];
  }
}
