/**
 * The public surface of the package, pinned: every name each entry point exports and the
 * declaration text of everything those names reach (from the declarations the package ships,
 * dist/lib/). A change to it fails here with the diff; an intended one is accepted by writing
 * the report again (below) and saying so in CHANGELOG.md — semantic versioning from 1.0 on:
 * a removal or an incompatible change is a new major version.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { requireFreshBuild } from '../helpers/built.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const lib = path.join(root, 'dist', 'lib');
const REPORT = path.join(root, 'etc/api-report.md');
const ENTRIES: readonly [string, string][] = [
  ['kactl', 'index'],
  ['kactl/client', 'client'],
  ['kactl/seller', 'seller'],
  ['kactl/sandbox', 'sandbox'],
];
const ACCEPT = 'KACTL_ACCEPT_API=1 npx vitest run test/library/api-report.test.ts';

/** The report's text: each entry's exported names, then every declaration they reach. */
function apiReport(): string {
  const files = ENTRIES.map(([, file]) => path.join(lib, `${file}.d.ts`));
  const program = ts.createProgram(files, { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true, types: ['node'] });
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const ours = (node: ts.Node): boolean => path.resolve(node.getSourceFile().fileName).startsWith(lib + path.sep);

  const sections: string[] = [];
  const declarations = new Map<string, string>();
  const queue: ts.Symbol[] = [];
  for (const [name, file] of ENTRIES) {
    const source = program.getSourceFile(path.join(lib, `${file}.d.ts`));
    if (source === undefined) throw new Error(`dist/lib/${file}.d.ts is missing: run \`npm run build\``);
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).sort((a, b) => a.name.localeCompare(b.name));
    sections.push(`## ${name}\n\n${exports.map((symbol) => `- ${symbol.name}`).join('\n')}\n`);
    queue.push(...exports.map(resolve));
  }
  const seen = new Set<ts.Symbol>();
  while (queue.length > 0) {
    const symbol = queue.shift()!;
    if (seen.has(symbol) || symbol.flags & ts.SymbolFlags.TypeParameter) continue;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      if (!ours(declaration)) continue;
      const where = path.relative(lib, declaration.getSourceFile().fileName);
      const text = printer.printNode(ts.EmitHint.Unspecified, declaration, declaration.getSourceFile());
      declarations.set(`${symbol.name} (${where})`, text.replace(/^export /, ''));
      // Every named type the declaration mentions is part of the surface too.
      const visit = (node: ts.Node): void => {
        const name = ts.isTypeReferenceNode(node) ? node.typeName : ts.isExpressionWithTypeArguments(node) ? node.expression : ts.isTypeQueryNode(node) ? node.exprName : undefined;
        if (name !== undefined) {
          const found = checker.getSymbolAtLocation(name);
          if (found !== undefined) queue.push(resolve(found));
        }
        ts.forEachChild(node, visit);
      };
      visit(declaration);
    }
  }
  const body = [...declarations.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([title, text]) => `### ${title}\n\n\`\`\`ts\n${text}\n\`\`\`\n`)
    .join('\n');
  return `# The public API of kactl\n\nWritten by test/library/api-report.test.ts from the shipped declarations; do not edit.\nAccept an intended change with \`${ACCEPT}\`.\n\n${sections.join('\n')}\n## Declarations\n\n${body}`;
}

it('the public API is the one recorded in etc/api-report.md', () => {
  // A report of declarations built from other sources would be a wrong diff.
  requireFreshBuild();
  const report = apiReport();
  if (process.env.KACTL_ACCEPT_API === '1') fs.writeFileSync(REPORT, report);
  const recorded = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, 'utf8') : '';
  expect(
    report,
    `The public API changed. If that is intended, run \`${ACCEPT}\`, commit etc/api-report.md and add the change to CHANGELOG.md (under "Unreleased"; a removal or an incompatible change needs a new major version). Otherwise undo the change.`,
  ).toBe(recorded);
});
