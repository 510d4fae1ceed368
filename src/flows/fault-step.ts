/**
 * The `fault:` step of a flows file: installs a fault in the flow's sandbox for the steps after it
 * (`kactl sandbox fault add`), or clears them (`fault: clear`). Written as `kind [ARG]`
 * (`fault: forge-signature`, `fault: stale-timestamp 10m`), or as an object with the filters
 * (`fault: { kind: forge-signature, type: login, times: 1 }`). The runner clears what a flow
 * installed when the flow ends, so no fault outlives its flow.
 */
import { faultLabel } from '../server/faults/spec.js';

/** The step's value as the flows schema allows it. */
export type FaultStepValue =
  | string
  | { kind: string; arg?: string | number; type?: string; api?: string | number; user?: string; times?: number; rate?: number };

/** `clear`, or the fault to add as `kactl sandbox fault add` arguments. */
export function faultArgv(value: FaultStepValue): string[] {
  if (typeof value === 'string') {
    const [kind = '', ...rest] = value.trim().split(/\s+/);
    if (kind === 'clear' && rest.length === 0) return ['sandbox', 'fault', 'clear', '--json'];
    return ['sandbox', 'fault', 'add', kind, ...rest, '--json'];
  }
  const flags: string[] = [];
  if (value.type !== undefined) flags.push('--type', value.type);
  if (value.api !== undefined) flags.push('--api', String(value.api));
  if (value.user !== undefined) flags.push('--user', value.user);
  if (value.times !== undefined) flags.push('--times', String(value.times));
  if (value.rate !== undefined) flags.push('--rate', String(value.rate));
  return ['sandbox', 'fault', 'add', ...flags, value.kind, ...(value.arg === undefined ? [] : [String(value.arg)]), '--json'];
}

/** How the report names the fault: `forge-signature on type=login, 1 time`. */
export function faultWords(value: FaultStepValue): string {
  if (typeof value === 'string') return value.trim();
  const filters = [
    value.type === undefined ? undefined : `type=${value.type}`,
    value.api === undefined ? undefined : `api=${value.api}`,
    value.user === undefined ? undefined : `user=${value.user}`,
    value.times === undefined ? undefined : `times=${value.times}`,
    value.rate === undefined ? undefined : `rate=${value.rate}`,
  ].filter((part): part is string => part !== undefined);
  const label = faultLabel({ kind: value.kind, arg: value.arg === undefined ? undefined : String(value.arg) });
  return filters.length === 0 ? label : `${label} on ${filters.join(' ')}`;
}

export function isClear(value: FaultStepValue): boolean {
  return typeof value === 'string' && value.trim() === 'clear';
}
