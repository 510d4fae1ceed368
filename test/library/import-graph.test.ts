/**
 * The library's entry points (package.json `exports`) reach nothing of the CLI: no command, no
 * terminal IO, no profile store, no commander. This walks the runtime imports (static, dynamic
 * and re-exports; `import type` is erased and does not count) from each entry source, and fails
 * with the chain that leads to a forbidden module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const ENTRIES = ['src/index.ts', 'src/client.ts', 'src/seller.ts', 'src/sandbox.ts'];
/** Modules of the CLI (paths from the repository root) and packages only the CLI uses. */
const FORBIDDEN_PATHS = ['src/commands/', 'src/io/', 'src/config/', 'src/cli.ts', 'src/program.ts', 'src/context.ts', 'src/error-hints.ts'];
const FORBIDDEN_PACKAGES = ['commander', '@inquirer/prompts', 'chalk', 'cli-table3', 'qrcode-terminal'];

/** Runtime specifiers of a TypeScript source: import/export … from, import(), side-effect imports. */
export function runtimeImports(source: string): string[] {
  const found: string[] = [];
  // Drop comments so an example in a comment is not an import.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    if (match[2] !== undefined) continue;
    // `import { type A, type B } from` erases too when every name is a type.
    const names = /^\{([^}]*)\}$/.exec(match[3]!.trim())?.[1];
    if (names !== undefined && names.split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim()))) continue;
    found.push(match[4]!);
  }
  for (const match of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

function resolveSource(from: string, specifier: string): string {
  const target = path.join(path.dirname(from), specifier);
  return target.replace(/\.js$/, '.ts');
}

/** Every module an entry reaches, with the chain that reached it. */
function reach(entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    for (const specifier of runtimeImports(source)) {
      const key = specifier.startsWith('.') ? path.relative(root, path.join(root, resolveSource(file, specifier))) : `package:${specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]}`;
      if (chains.has(key)) continue;
      chains.set(key, [...chains.get(file)!, key]);
      if (!key.startsWith('package:') && !key.startsWith('node:')) queue.push(key);
    }
  }
  return chains;
}

describe('the import graph of the library entry points', () => {
  it('reads the runtime imports of a source, and only those', () => {
    const source = [
      "import type { A } from './a.js';",
      "import { type B, type C } from './b.js';",
      "import { type D, e } from './d.js';",
      "export { f } from './f.js';",
      "export type { G } from './g.js';",
      "// import { h } from './h.js';",
      "const i = await import('./i.js');",
    ].join('\n');
    expect(runtimeImports(source)).toEqual(['./d.js', './f.js', './i.js']);
  });

  it.each(ENTRIES)('%s reaches no command, terminal IO, profile store or CLI package', (entry) => {
    const chains = reach(entry);
    const bad = [...chains.entries()].filter(([file]) => FORBIDDEN_PATHS.some((prefix) => file.startsWith(prefix)) || FORBIDDEN_PACKAGES.some((name) => file === `package:${name}`));
    expect(bad.map(([, chain]) => chain.join(' → '))).toEqual([]);
    // The walk did follow the graph (a broken walk would pass the check above trivially).
    expect(chains.size).toBeGreaterThan(entry === 'src/index.ts' ? 2 : 8);
  });

  it('the root entry loads neither the sandbox server nor SQLite', () => {
    const chains = reach('src/index.ts');
    expect([...chains.keys()].filter((file) => file.startsWith('src/server/') || file === 'package:better-sqlite3')).toEqual([]);
  });
});
