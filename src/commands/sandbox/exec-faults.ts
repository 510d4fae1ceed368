/**
 * `sandbox exec --fault KIND[=ARG][:TYPE,…]`: the faults a run starts with, so the most common
 * fault test is one command (`kactl sandbox exec --fault forge-signature:login -- ./test.sh`)
 * rather than `sh -c 'kactl sandbox fault add … && …'`. Each is checked with the sandbox's own
 * rules before anything starts (a mistake is exit 2), and added once the seed is applied, so the
 * seed's calls are never faulted.
 */
import { InvalidArgumentError } from 'commander';
import { checkFaultInput } from '../../server/faults/checked-spec.js';
import { FAULT_KINDS } from '../../server/faults/spec.js';
import type { FaultRequest } from '../../api/sandbox-faults.js';

/** Commander's collector for the repeatable flag: each value checked as it comes. */
export function collectFault(raw: string, previous: readonly FaultRequest[] = []): FaultRequest[] {
  return [...previous, parseFaultFlag(raw)];
}

/** `forge-signature`, `status=503`, `rate-limit=30s:login,init` → the fault to add. */
export function parseFaultFlag(raw: string): FaultRequest {
  const colon = raw.indexOf(':');
  const head = colon < 0 ? raw : raw.slice(0, colon);
  const types = colon < 0 ? undefined : raw.slice(colon + 1);
  const equals = head.indexOf('=');
  const kind = (equals < 0 ? head : head.slice(0, equals)).trim();
  const arg = equals < 0 ? undefined : head.slice(equals + 1).trim();
  if (types !== undefined && types.trim() === '') throw new InvalidArgumentError(`"${raw}" names no type after the colon: KIND[=ARG][:TYPE,…], e.g. forge-signature:login.`);
  // The sandbox's whole check, types against the API catalogs: a misspelt type would never fire.
  const spec = checkFaultInput({ kind, arg, type: types });
  if ('error' in spec) {
    const known = (FAULT_KINDS as readonly string[]).includes(kind);
    throw new InvalidArgumentError(`${spec.error}${known ? '' : ' (KIND[=ARG][:TYPE,…], e.g. status=503:login)'}.`);
  }
  return {
    kind: spec.kind,
    ...(spec.arg === undefined ? {} : { arg: spec.arg }),
    ...(spec.types === undefined ? {} : { type: spec.types }),
  };
}
