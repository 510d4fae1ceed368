/**
 * The values a seller catalog parameter takes (src/api/seller-catalog/): what is wrong with one,
 * in words that name the unit, and how a checked one goes on the wire. No commander here: flag
 * parsing and prompts (src/commands/seller/param-options.ts, wire-params.ts) and the state
 * engine's checks of a plan's calls (src/state/check.ts), which the library's sandbox seeds run
 * too, refuse the same values the same way.
 */
import type { ParamSpec } from './seller-catalog/index.js';
import { durationHint, fractionalAmount, hasUnit, parseDuration, UNIT_SECONDS } from '../util/duration.js';
import type { DurationUnit } from '../util/duration.js';

/**
 * What is wrong with `raw` as a value of `param`, in words that name the unit, or undefined.
 * Shared by flag parsing and by prompts, so both refuse the same values the same way.
 */
export function valueProblem(param: ParamSpec, raw: string): string | undefined {
  if (param.unit) return durationProblem(param, raw);
  if (param.type === 'integer' && !/^-?\d+$/.test(raw.trim())) return 'Give a whole number, e.g. 30.';
  if (param.type === 'number' && !/^-?(\d+(\.\d*)?|\.\d+)$/.test(raw.trim())) return 'Give a number, e.g. 30 or 0.5.';
  if (param.type === 'booltext' && raw !== 'true' && raw !== 'false') return 'Give true or false.';
  if (param.type === 'enum' && !(param.choices ?? []).includes(raw)) return `Give one of ${(param.choices ?? []).join(', ')}.`;
  if (param.maxLength !== undefined && raw.length > param.maxLength) return `At most ${param.maxLength} characters (this has ${raw.length}).`;
  return undefined;
}

/**
 * A parameter with a unit takes a duration (util/duration.ts): a bare number in the unit, or
 * `30d`, `12h`, `90m`, `45s`, `2w`. Where the server stores whole units (seconds), a duration
 * that is not a whole number of them is refused rather than rounded.
 */
function durationProblem(param: ParamSpec, raw: string): string | undefined {
  const unit = param.unit!;
  const seconds = parseDuration(raw, unit);
  const whole = param.type === 'integer';
  const wholeAmount = hasUnit(raw) ? seconds !== undefined && wholeUnits(seconds, unit) !== undefined : /^-?\d+$/.test(raw.trim());
  if (seconds === undefined || (whole && !wholeAmount)) return durationHint(unit, whole);
  if (param.maxLength !== undefined && raw.length > param.maxLength) return `At most ${param.maxLength} characters (this has ${raw.length}).`;
  return undefined;
}

/**
 * A checked value as the wire takes it: a duration with its unit written out (`30d`) becomes a
 * number of the parameter's unit (`30` days, `2592000` seconds); anything else is sent as given.
 */
export function wireValue(param: ParamSpec, raw: string): string {
  if (param.unit === undefined || !hasUnit(raw)) return param.type === 'integer' || param.type === 'number' ? raw.trim() : raw;
  const seconds = parseDuration(raw, param.unit)!;
  return param.type === 'integer' ? String(wholeUnits(seconds, param.unit)) : fractionalAmount(seconds, param.unit);
}

/** `seconds` as a whole number of `unit` (`1.1h` is 3960 s, whatever floating point says), or undefined. */
function wholeUnits(seconds: number, unit: DurationUnit): number | undefined {
  const amount = seconds / UNIT_SECONDS[unit];
  return Math.abs(amount - Math.round(amount)) < 1e-6 ? Math.round(amount) : undefined;
}
