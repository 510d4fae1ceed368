/**
 * No function in src/ is longer than 80 lines: a longer one is a request path, a command's run
 * or a rule that wants naming in parts (docs/architecture.md, "Rules every file follows"; for
 * the sandbox, src/server/README.md, "The request path"). Counted from the function's first
 * line to its closing brace, nested functions included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHECKED = ['src'];
const MAX_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** `file:line name (N lines)` for every function over the limit. */
function longFunctions(file: string, maxLines: number): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (lines > maxLines) found.push(`${path.relative(ROOT, file)}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it(`no function in ${CHECKED.join(', ')} is over ${MAX_LINES} lines`, () => {
    const files = CHECKED.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => longFunctions(file, MAX_LINES))).toEqual([]);
  });
});
