/**
 * A request's parameters: form body first, then query string (the real server reads
 * `$_POST[x] ?? $_GET[x]` for every parameter, on every API). Names are case-sensitive.
 */
import { sanitize } from './sanitize.js';

export class Params {
  private readonly values: ReadonlyMap<string, string>;
  private readonly cleaned = new Map<string, string | undefined>();

  /** `values` are decoded but not sanitized. */
  constructor(values: ReadonlyMap<string, string> | Iterable<readonly [string, string]> = []) {
    this.values = values instanceof Map ? values : new Map(values);
  }

  /**
   * Merges a form body over a query string. Within one source the last duplicate wins (PHP);
   * across sources a name present in the body wins, even when its value is empty.
   */
  static merge(body: Iterable<readonly [string, string]>, query: Iterable<readonly [string, string]>): Params {
    // One map, the query's pairs then the body's: a later pair replaces an earlier one's value
    // and keeps its place, so this is the order and the values of merging the body's own map in.
    const merged = new Map<string, string>();
    for (const [name, value] of query) merged.set(name, value);
    for (const [name, value] of body) merged.set(name, value);
    return new Params(merged);
  }

  /** The sanitized value (trimmed, tags stripped); undefined when absent or empty. */
  get(name: string): string | undefined {
    if (!this.cleaned.has(name)) {
      const raw = this.values.get(name);
      this.cleaned.set(name, raw === undefined ? undefined : sanitize(raw));
    }
    return this.cleaned.get(name);
  }

  /** The value exactly as sent (after percent-decoding); undefined when absent. */
  raw(name: string): string | undefined {
    return this.values.get(name);
  }

  /** Whether `get(name)` has a value. */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Every parameter name that was sent. */
  names(): string[] {
    return [...this.values.keys()];
  }

  /** A copy with some values replaced (tests, handlers forwarding to another handler). */
  with(overrides: Readonly<Record<string, string>>): Params {
    const next = new Map(this.values);
    for (const [name, value] of Object.entries(overrides)) next.set(name, value);
    return new Params(next);
  }
}
