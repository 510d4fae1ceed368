/**
 * How a logged-in user is shown after register, login, license, email code and magic link:
 * `--json` prints the server's answer; otherwise the server's message on stderr, the user's
 * fields, and their subscriptions as a table (name, level, expiry as a date, time left).
 */
import type { Context } from '../../context.js';
import type { Column } from '../../io/format.js';
import { messageText, objectField } from './answers.js';

const USER_COLUMNS: readonly Column[] = [
  { key: 'username' },
  { key: 'ip' },
  { key: 'hwid' },
  { key: 'created', kind: 'date' },
  { key: 'last login', kind: 'date' },
];

export const SUBSCRIPTION_COLUMNS: readonly Column[] = [
  { key: 'subscription' },
  { key: 'level' },
  { key: 'expiry', header: 'EXPIRES', kind: 'date' },
  { key: 'timeleft', header: 'TIME LEFT', kind: 'duration' },
];

/**
 * The subscriptions of an `info` object as rows. `subscriptions` is an array, except in the
 * 1.2 register answer, where a single subscription comes as a bare object (docs/protocol/client-api.md §5.1).
 * Time left is counted from the expiry, not read from `timeleft`, which that same answer gets
 * wrong.
 */
export function subscriptionRows(subscriptions: unknown, nowMs: number): Record<string, unknown>[] {
  const items: unknown[] = Array.isArray(subscriptions) ? subscriptions : typeof subscriptions === 'object' && subscriptions !== null ? [subscriptions] : [];
  return items
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item) => {
      const expiry = Number(item.expiry);
      const timeleft = Number.isFinite(expiry) && expiry > 0 ? Math.floor(expiry - nowMs / 1000) : item.timeleft;
      return { subscription: item.subscription, level: item.level ?? null, expiry: item.expiry, timeleft };
    });
}

export async function showUser(ctx: Context, body: Record<string, unknown>, fallbackMessage: string): Promise<void> {
  if (ctx.output.wantsJson) return ctx.output.json(body);
  ctx.output.success(messageText(body) || fallbackMessage);
  const info = objectField(body, 'info');
  if (info === undefined) return;
  ctx.output.record({ username: info.username, ip: info.ip, hwid: info.hwid, created: info.createdate, 'last login': info.lastlogin }, USER_COLUMNS);
  const rows = subscriptionRows(info.subscriptions, ctx.serverNow());
  if (ctx.output.isHuman) {
    if (rows.length === 0) return ctx.output.note('No active subscriptions.');
    ctx.io.out('\n');
  }
  await ctx.output.list(rows, SUBSCRIPTION_COLUMNS);
}
