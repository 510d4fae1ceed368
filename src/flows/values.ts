/** Reading answers by path (`info.subscriptions[0].level`) and checking a step's expectations. */

/** `a.b[0].c` → ['a', 'b', 0, 'c']. */
export function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return parts;
}

export function valueAt(body: unknown, path: string): unknown {
  if (body !== null && typeof body === 'object' && path in body) return (body as Record<string, unknown>)[path];
  let value: unknown = body;
  for (const part of parsePath(path)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const REGEX = /^\/(.*)\/([a-z]*)$/s;

/** One expectation against the actual value: undefined when it holds, else what went wrong. */
export function mismatch(expected: unknown, actual: unknown): string | undefined {
  if (typeof expected === 'string') {
    const regex = REGEX.exec(expected);
    if (regex) return typeof actual === 'string' || typeof actual === 'number' ? (new RegExp(regex[1]!, regex[2]).test(String(actual)) ? undefined : 'does not match') : 'is not text';
  }
  if (expected === null) return actual === null || actual === undefined ? undefined : 'is not null';
  if (typeof expected === 'object') return JSON.stringify(expected) === JSON.stringify(actual) ? undefined : 'differs';
  if (actual === undefined) return 'is missing';
  // Numbers and booleans compare as text: servers send levels as "1" and flags as "0"/"1".
  return scalar(expected) === scalar(actual) ? undefined : 'differs';
}

export function show(value: unknown): string {
  if (value === undefined) return '(missing)';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** The first non-empty line of a command's stderr, without its `error:` prefix. */
export function firstLine(text: string): string {
  return text.trim().split('\n').find((line) => line.trim() !== '')?.replace(/^error:\s*/, '') ?? '';
}
