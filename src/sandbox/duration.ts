/** A clock step: seconds, or a text like `16m`, `31d`, `-1d`, `+6h`, `90` (seconds), `500ms`. */
import { UsageError } from '../api/errors.js';

const UNIT_SECONDS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/** Whole seconds, either way; a UsageError for anything else. */
export function clockStepSeconds(step: number | string): number {
  if (typeof step === 'number') {
    if (!Number.isFinite(step)) throw new UsageError(`A clock step must be a number of seconds, not ${step}.`);
    return Math.round(step);
  }
  const match = /^([+-])?(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(String(step).trim());
  if (!match) throw new UsageError(`"${step}" is not a clock step: give seconds, or a text like 16m, 6h, 31d or -1d.`);
  const seconds = Math.round(Number(match[2]) * UNIT_SECONDS[match[3] ?? 's']!);
  return match[1] === '-' ? -seconds : seconds;
}
