/** Human durations on the command line: `15`, `500ms`, `15s`, `2m`, `1h`, `7d` (bare = seconds). */
export const DURATION_HINT = 'Give a duration like 15, 500ms, 15s, 2m, 1h or 7d.';

const UNIT_SECONDS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds (may be fractional), or undefined when `raw` is not a positive duration. */
export function durationSeconds(raw: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']!;
  return seconds > 0 ? seconds : undefined;
}
