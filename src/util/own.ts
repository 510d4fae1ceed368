/**
 * A record's value under a key that came from outside (a request parameter, a payload key), own
 * properties only: `record[key]` would also find `constructor`, `__proto__`, `toString`... on
 * Object.prototype and hand back a function or an object where a string was expected.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
