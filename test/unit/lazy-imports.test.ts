/**
 * A lazy `import()` in src/commands is kept for what is heavy on a command's path: a module whose
 * static import graph reaches a heavy package or Node built-in (test/helpers/heavy-modules.ts:
 * its packages are the list the cold-start test uses), or one of them itself. A light sibling is imported statically: commander's registry already loads command
 * files only when their group runs (src/commands/registry.ts, the one exception), so a lazy
 * import of a light module saves nothing and costs a chunk (docs/architecture.md, "Cold start").
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { HEAVY_BUILTINS, HEAVY_PACKAGES } from '../helpers/heavy-modules.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const COMMANDS = path.join(ROOT, 'src/commands');
/** The registry is the lazy loading of command groups itself. */
const REGISTRY = path.join(COMMANDS, 'registry.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The specifiers a module loads when it is evaluated: value imports and re-exports, not `import type`. */
function staticSpecifiers(file: string): string[] {
  return parse(file).statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly !== true) return [(statement.moduleSpecifier as ts.StringLiteral).text];
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier !== undefined) return [(statement.moduleSpecifier as ts.StringLiteral).text];
    return [];
  });
}

/** A relative specifier as the source file it names (`./x.js` is `./x.ts`); undefined for JSON and the like. */
function sourceOf(from: string, specifier: string): string | undefined {
  const file = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
  return file.endsWith('.ts') && existsSync(file) ? file : undefined;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function heavyPackageOrBuiltin(specifier: string): boolean {
  if (specifier.startsWith('node:')) return HEAVY_BUILTINS.includes(specifier);
  return HEAVY_PACKAGES.includes(packageName(specifier));
}

/** The first heavy module the static graph from `file` reaches, or undefined when it is light. */
function heavyReach(file: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  for (const specifier of staticSpecifiers(file)) {
    if (!specifier.startsWith('.')) {
      if (heavyPackageOrBuiltin(specifier)) return specifier;
      continue;
    }
    const next = sourceOf(file, specifier);
    const reached = next === undefined ? undefined : heavyReach(next, seen);
    if (reached !== undefined) return reached;
  }
  return undefined;
}

interface LazyImport {
  where: string;
  specifier: string | undefined;
}

function lazyImports(file: string): LazyImport[] {
  const source = parse(file);
  const found: LazyImport[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const argument = node.arguments[0];
      found.push({ where: `${path.relative(ROOT, file)}:${line}`, specifier: argument !== undefined && ts.isStringLiteral(argument) ? argument.text : undefined });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Why a lazy import is not needed, or undefined when its target is heavy. */
function lightTarget(file: string, lazy: LazyImport): string | undefined {
  const { where, specifier } = lazy;
  if (specifier === undefined) return `${where} imports a computed name: name the module`;
  if (!specifier.startsWith('.')) return heavyPackageOrBuiltin(specifier) ? undefined : `${where} ${specifier} is light: import it statically`;
  const target = sourceOf(file, specifier);
  if (target === undefined) return `${where} ${specifier} is not a source file`;
  return heavyReach(target) === undefined ? `${where} ${specifier} reaches nothing heavy: import it statically` : undefined;
}

describe('lazy imports in src/commands', () => {
  it('the check tells heavy from light', () => {
    expect(heavyPackageOrBuiltin('node:fs')).toBe(false);
    expect(heavyPackageOrBuiltin('node:http')).toBe(true);
    expect(heavyPackageOrBuiltin('yaml')).toBe(true);
    expect(heavyReach(path.join(ROOT, 'src/server/start.ts'))).toBeDefined();
    // Through a sibling: the update download hashes what it saves (node:crypto).
    expect(heavyReach(path.join(ROOT, 'src/commands/client/update-download.ts'))).toBe('node:crypto');
    expect(heavyReach(path.join(ROOT, 'src/api/redact.ts'))).toBeUndefined();
  });

  it('every lazy import outside the registry loads something heavy', () => {
    const files = sourceFiles(COMMANDS).filter((file) => file !== REGISTRY);
    const lazy = files.flatMap((file) => lazyImports(file).map((found) => ({ file, found })));
    expect(lazy.length).toBeGreaterThan(5);
    expect(lazy.flatMap(({ file, found }) => lightTarget(file, found) ?? [])).toEqual([]);
  });
});
