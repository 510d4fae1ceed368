/** `key=value` arguments of the raw `call` commands. */
import { InvalidArgumentError } from 'commander';

/** Parses `a=1 b= c=x=y` into `{ a: '1', b: '', c: 'x=y' }` (split at the first `=`). */
export function parseKeyValues(pairs: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`"${pair}" is not key=value.`);
    const key = pair.slice(0, eq);
    if (key in params) throw new InvalidArgumentError(`"${key}" is given twice.`);
    params[key] = pair.slice(eq + 1);
  }
  return params;
}

/** Reserved names the callers add themselves; giving them by hand would send them twice. */
export function rejectReserved(params: Record<string, string>, reserved: readonly string[]): void {
  for (const name of reserved) {
    if (name in params) throw new InvalidArgumentError(`"${name}" is added by kactl from the profile; don't pass it.`);
  }
}
