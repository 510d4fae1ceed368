/**
 * Numbers that only make sense above zero. The real server takes `add expiry=-1`, `level=0` or
 * `muteuser time=-1` and stores nonsense (a key that grants nothing and burns on register, a
 * level no subscription can have, a mute already over). The sandbox refuses them, as it refuses
 * non-numbers (params.ts), so a tester's script learns about the mistake.
 *
 * A duration in days must also be at least one second once converted, so `1e-400` (read as 0)
 * or `0.000001` is refused too.
 */
import { ownValue } from '../../util/own.js';

/** `type` → wire name → unit of a parameter that must be greater than zero. */
const POSITIVE: Readonly<Record<string, Readonly<Record<string, 'days' | 'plain'>>>> = {
  add: { expiry: 'days', level: 'plain' },
  addsub: { level: 'plain' },
  muteuser: { time: 'plain' },
};

/** The generic refusal for `value` of `wire` under `type`, or undefined when it is in range. */
export function rangeProblem(type: string, wire: string, value: string): string | undefined {
  const forType = ownValue(POSITIVE, type);
  const unit = forType === undefined ? undefined : ownValue(forType, wire);
  if (unit === undefined) return undefined;
  const n = Number(value);
  const positive = Number.isFinite(n) && (unit === 'days' ? Math.round(n * 86_400) >= 1 : n > 0);
  return positive ? undefined : `Invalid parameter: ${wire} must be greater than zero`;
}
