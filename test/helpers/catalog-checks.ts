/**
 * How the catalog tests (test/unit/seller-catalog.test.ts, test/unit/client-catalog.test.ts)
 * hold a catalog: each check is a function over a list of entries, run against the real catalog
 * (no problems) and against deliberately broken copies (a problem each), so no check can pass
 * by accident; and every check has a broken copy.
 */
import { expect, it } from 'vitest';

export type Check<Op> = (ops: readonly Op[]) => string[];
/** A check's name, what the copy breaks, and how. */
export type Broken<Op, Name extends string = string> = readonly [Name, string, (ops: readonly Op[]) => readonly Op[]];

export function itHoldsItsChecks<Op, Name extends string>(catalog: readonly Op[], checks: Readonly<Record<Name, Check<Op>>>, broken: readonly Broken<Op, Name>[]): void {
  it.each(Object.entries<Check<Op>>(checks))('%s holds for the catalog', (_name, check) => {
    expect(check(catalog)).toEqual([]);
  });

  it.each(broken)('%s catches: %s', (name, _what, breakIt) => {
    expect(checks[name](breakIt(catalog)).length).toBeGreaterThan(0);
  });

  it('has a broken copy for every check', () => {
    const covered = new Set<string>(broken.map(([name]) => name));
    expect(Object.keys(checks).filter((name) => !covered.has(name))).toEqual([]);
  });
}

/**
 * Modules a source file imports or re-exports from outside its own folder (a catalog's files may
 * import only each other: the CLI loads them for `--help`). `import type` counts unless
 * `typesToo` is false (type imports are erased).
 */
export function foreignImports(source: string, typesToo = true): string[] {
  const statement = typesToo ? /^(?:import|export)\s(?:[^;]*?\sfrom\s+)?'([^']+)'/gm : /^(?:import|export)\s(?!type\s)(?:[^;]*?\sfrom\s+)?'([^']+)'/gm;
  return [...source.matchAll(statement)].map((m) => m[1]!).filter((from) => !/^\.\/[a-z-]+\.js$/.test(from));
}
