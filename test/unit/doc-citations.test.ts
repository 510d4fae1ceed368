/**
 * Every page a comment or a doc cites must be in the repository: a reader of the repo has
 * nothing else. A cited `§N` must be a numbered heading of that page, and a cited section name
 * (`, "Name"` or `("Name")` right after the path) must appear in it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED_DIRS = ['src', 'test', 'bench', 'docs'];
const SCANNED_FILES = ['README.md', 'CONTRIBUTING.md'];
const TEXT = /\.(ts|js|mjs|cjs|md|json|ya?ml|sh)$/;

// A path ending in .md, not part of a URL or a longer path; then an optional § number or quoted name.
const CITATION = /(?<![\w./:-])((?:\.{1,2}\/)?[\w-]+(?:\/[\w.-]+)*\.md)\b(?:,?\s*§\s?(\d+(?:\.\d+)?))?(?:,?\s*\(?"([^"\n]{2,60})")?/g;

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (TEXT.test(name)) out.push(full);
  }
}

function scannedFiles(): string[] {
  const files: string[] = [];
  for (const dir of SCANNED_DIRS) if (existsSync(path.join(ROOT, dir))) walk(path.join(ROOT, dir), files);
  for (const file of SCANNED_FILES) if (existsSync(path.join(ROOT, file))) files.push(path.join(ROOT, file));
  // This file names pages only as examples for the scanner.
  return files.filter((file) => file !== import.meta.filename);
}

interface Citation {
  where: string;
  target: string;
  section?: string;
  name?: string;
}

export function citationsIn(text: string, where: string): Citation[] {
  const found: Citation[] = [];
  for (const match of text.matchAll(CITATION)) {
    const [, target, section, name] = match;
    found.push({ where, target: target!, ...(section ? { section } : {}), ...(name ? { name } : {}) });
  }
  return found;
}

/** The cited page, from the repo root or next to the citing file (a relative Markdown link). */
function resolveTarget(citation: Citation): string | undefined {
  const candidates = [path.join(ROOT, citation.target), path.join(path.dirname(path.join(ROOT, citation.where)), citation.target)];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function hasSection(page: string, section: string): boolean {
  const escaped = section.replace(/\./g, '\\.');
  return new RegExp(`^#+\\s+§?${escaped}(\\.|\\s)`, 'm').test(page);
}

describe('citations of pages', () => {
  const citations = scannedFiles().flatMap((file) => citationsIn(readFileSync(file, 'utf8'), path.relative(ROOT, file)));

  it('finds the citations it is meant to check', () => {
    // Guards the scanner itself: a regex that matched nothing would pass every check below.
    expect(citations.length).toBeGreaterThan(100);
    expect(citationsIn('see docs/protocol/x.md §4.2 and y.md, "Exit codes"', 'a.ts')).toEqual([
      { where: 'a.ts', target: 'docs/protocol/x.md', section: '4.2' },
      { where: 'a.ts', target: 'y.md', name: 'Exit codes' },
    ]);
    expect(citationsIn('https://example.com/a/README.md', 'a.ts')).toEqual([]);
    expect(citations.filter((c) => c.section !== undefined).length).toBeGreaterThan(50);
  });

  it('cites only pages that are in the repository', () => {
    const missing = citations.filter((c) => resolveTarget(c) === undefined).map((c) => `${c.where}: ${c.target}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('cites only sections those pages have', () => {
    const wrong: string[] = [];
    for (const c of citations) {
      const file = resolveTarget(c);
      if (file === undefined || !file.endsWith('.md')) continue;
      const page = readFileSync(file, 'utf8');
      if (c.section !== undefined && !hasSection(page, c.section)) wrong.push(`${c.where}: ${c.target} §${c.section}`);
      if (c.name !== undefined && !page.includes(c.name)) wrong.push(`${c.where}: ${c.target} "${c.name}"`);
    }
    expect([...new Set(wrong)]).toEqual([]);
  });
});
