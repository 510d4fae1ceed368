/**
 * Durations, one syntax everywhere kactl reads one (flags, prompts, state and flows files,
 * `--timeout`): a number with a unit, `2w`, `30d`, `12h`, `90m`, `45s`, `500ms`, or a bare number
 * in the unit the place names (`--expiry` days, `--seconds` seconds, `--timeout` seconds, a
 * state file's `expiry` days). Fractions are allowed (`0.5d`); whole seconds are asked for only
 * where the server stores whole seconds.
 */

/** The units a place may name for a bare number, as the seller catalog spells them. */
export type DurationUnit = 'weeks' | 'days' | 'hours' | 'minutes' | 'seconds';

const SUFFIX_SECONDS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
export const UNIT_SECONDS: Readonly<Record<DurationUnit, number>> = { weeks: 604_800, days: 86_400, hours: 3600, minutes: 60, seconds: 1 };

/** The units a duration may name, as a regular expression's source (the state schema's patterns use it). */
export const UNIT_PATTERN = '(ms|s|m|h|d|w)';

const SUFFIXED = new RegExp(`^([0-9]+(?:\\.[0-9]+)?)${UNIT_PATTERN}$`);
const BARE = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** True when `raw` names its unit (`30d`), rather than being a bare number. */
export function hasUnit(raw: string): boolean {
  return SUFFIXED.test(raw.trim());
}

/**
 * `raw` in seconds (may be fractional or, for a bare number, negative), or undefined when it is
 * not a duration. A bare number is in `bare`.
 */
export function parseDuration(raw: string | number, bare: DurationUnit): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw * UNIT_SECONDS[bare] : undefined;
  const text = raw.trim();
  const suffixed = SUFFIXED.exec(text);
  if (suffixed) return Number(suffixed[1]) * SUFFIX_SECONDS[suffixed[2]!]!;
  return BARE.test(text) ? Number(text) * UNIT_SECONDS[bare] : undefined;
}

/** What help shows as the forms a duration takes. */
export const DURATION_EXAMPLES = '45s, 90m, 12h, 30d or 2w';

/** The one sentence that says what a duration may look like, for a place whose bare numbers are in `bare`. */
export function durationHint(bare: DurationUnit, whole = false): string {
  return `Give a ${whole ? 'whole ' : ''}number of ${bare} or a duration such as ${DURATION_EXAMPLES}.`;
}

/**
 * Seconds as a number of `unit` for a parameter that takes fractions (days, minutes). An amount
 * whose product with the unit is the exact second is sent as it is (`30`, `0.5`); others get a
 * quarter second more, so a server that truncates (rather than rounds) amount × unit still
 * stores the exact second.
 */
export function fractionalAmount(seconds: number, unit: DurationUnit): string {
  const size = UNIT_SECONDS[unit];
  const plain = String(seconds / size);
  return !plain.includes('e') && Number(plain) * size === seconds ? plain : ((seconds + 0.25) / size).toFixed(9);
}

/** Commander-style parser result for `--timeout` and the like: seconds above zero, or undefined. */
export function positiveSeconds(raw: string, bare: DurationUnit = 'seconds'): number | undefined {
  const seconds = parseDuration(raw, bare);
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}
