/**
 * The direction of imports between the CLI's layers (docs/architecture.md, "Layers"): every
 * import in src/ — static, `import type`, re-exports and `await import()` alike, since a type
 * import ties the layers together as much as a value does — points to its own layer or a lower
 * one, and no two layers import each other, directly or round about. Inside a layer too, no
 * file reaches itself again through its imports: a circle is named file by file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Layers, lowest first: a file may import its own layer or one with a lower rank. Paths are
 * relative to src/; a folder ends in `/`. The shell (cli.ts, program.ts, commands/) is one layer:
 * `main` runs commands, and the demo and completion run `main` and the program again.
 */
const LAYERS: readonly { name: string; rank: number; paths: readonly string[] }[] = [
  { name: 'util', rank: 0, paths: ['util/'] },
  { name: 'api', rank: 1, paths: ['api/'] },
  { name: 'server', rank: 2, paths: ['server/'] },
  { name: 'base', rank: 2, paths: ['errors.ts', 'error-hints.ts', 'env.ts'] },
  { name: 'io', rank: 3, paths: ['io/'] },
  { name: 'config', rank: 3, paths: ['config/'] },
  { name: 'context', rank: 4, paths: ['context.ts', 'context/'] },
  { name: 'state', rank: 5, paths: ['state/'] },
  { name: 'library', rank: 6, paths: ['index.ts', 'client.ts', 'seller.ts', 'sandbox.ts', 'sandbox/'] },
  { name: 'flows', rank: 6, paths: ['flows/'] },
  { name: 'commands', rank: 7, paths: ['cli.ts', 'program.ts', 'commands/'] },
];

function layerOf(file: string): (typeof LAYERS)[number] | undefined {
  return LAYERS.find((layer) => layer.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/** Every relative specifier of a source: import/export … from (types too), side-effect imports, import(). */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const match of code.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found.filter((specifier) => specifier.startsWith('.'));
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

interface Edge {
  from: string;
  to: string;
}

/** Every import between two files of src/, as paths relative to src/. */
export function importEdges(srcDir: string): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(srcDir)) {
    const from = path.relative(srcDir, file);
    for (const specifier of importSpecifiers(fs.readFileSync(file, 'utf8'))) {
      const to = path.relative(srcDir, path.join(path.dirname(file), specifier)).replace(/\.js$/, '.ts');
      edges.push({ from, to });
    }
  }
  return edges;
}

/** The imports that climb: from a layer to one ranked higher. */
export function climbingImports(edges: readonly Edge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const a = layerOf(from);
    const b = layerOf(to);
    return a && b && b.rank > a.rank ? [`${from} (${a.name}) → ${to} (${b.name})`] : [];
  });
}

/** Loops between layers: each strongly connected group of two or more layers, with the imports that make it. */
export function layerLoops(edges: readonly Edge[]): string[] {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    const a = layerOf(from)?.name;
    const b = layerOf(to)?.name;
    if (a === undefined || b === undefined || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.get(a)!.has(b)) graph.get(a)!.set(b, `${from} → ${to}`);
  }
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      if (node === goal) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      queue.push(...(graph.get(node)?.keys() ?? []));
    }
    return false;
  };
  const loops: string[] = [];
  for (const [a, targets] of graph) for (const [b, example] of targets) if (reaches(b, a)) loops.push(`${a} → ${b} (${example}) and back`);
  return loops;
}

/**
 * Every import circle among the files: each group of files that reach one another (Tarjan's
 * strongly connected components), named by the shortest circle through its first file, with
 * the group's other files when it holds more than that circle.
 */
export function importCircles(edges: readonly Edge[]): string[] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) graph.set(from, [...(graph.get(from) ?? []), to]);
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!order.has(node)) visit(node);
  return groups.map((group) => {
    const circle = shortestCircle(graph, group[0]!, new Set(group));
    const others = group.filter((file) => !circle.includes(file));
    return `${[...circle, circle[0]].join(' → ')}${others.length === 0 ? '' : ` (with ${others.join(', ')})`}`;
  });
}

/** The shortest path from `start` back to itself through `members` (breadth first). */
function shortestCircle(graph: ReadonlyMap<string, readonly string[]>, start: string, members: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return path;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

describe('the layers of src/', () => {
  const edges = importEdges(path.join(root, 'src'));

  it('reads every kind of import, type imports and dynamic ones included', () => {
    const source = [
      "import type { A } from './a.js';",
      "import { b } from '../b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "import './e.js';",
      "// import { f } from './f.js';",
      "const g = await import('./g.js');",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(['../b.js', './a.js', './c.js', './d.js', './e.js', './g.js']);
  });

  it('knows the layer of every source file', () => {
    const files = sources(path.join(root, 'src')).map((file) => path.relative(path.join(root, 'src'), file));
    expect(files.filter((file) => layerOf(file) === undefined)).toEqual([]);
    // The walk found the graph (an empty one would pass the checks below trivially).
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('has no import from a lower layer to a higher one', () => {
    expect(climbingImports(edges)).toEqual([]);
  });

  it('has no loop between layers', () => {
    expect(layerLoops(edges)).toEqual([]);
  });

  it('has no import circle, inside a layer or across layers', () => {
    expect(importCircles(edges)).toEqual([]);
  });

  it('names each circle it finds, file by file', () => {
    const planted = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'a.ts' },
      { from: 'c.ts', to: 'd.ts' },
      { from: 'd.ts', to: 'c.ts' },
      { from: 'e.ts', to: 'e.ts' },
      { from: 'f.ts', to: 'a.ts' },
    ];
    expect(importCircles(planted)).toEqual(['a.ts → b.ts → c.ts → a.ts (with d.ts)', 'e.ts → e.ts']);
  });

  it('catches a climbing import and the loop it makes', () => {
    const planted = [...edges, { from: 'io/ask.ts', to: 'context.ts' }];
    expect(climbingImports(planted)).toContain('io/ask.ts (io) → context.ts (context)');
    expect(layerLoops(planted)).toContain('io → context (io/ask.ts → context.ts) and back');
  });
});
