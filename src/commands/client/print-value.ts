/**
 * A value from the server (a variable, a webhook's answer) on stdout: as it came when piped,
 * so scripts get the exact text; without control characters on a terminal, where they could
 * move the cursor or retitle the window (docs/contracts.md §20).
 */
import type { Context } from '../../context.js';
import { stripControl } from '../../io/format.js';

export function printValue(ctx: Context, value: unknown): void {
  const raw = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  const text = ctx.io.isStdoutTTY ? stripControl(raw) : raw;
  ctx.io.out(text === '' || text.endsWith('\n') ? text : `${text}\n`);
}
