// Builds the library's entry points (package.json `exports`: `kactl`, `kactl/client`,
// `kactl/seller`, `kactl/sandbox`) into dist/lib/, apart from the CLI's bundle (dist/bundle/,
// scripts/bundle.mjs), which stays as it is for its cold start.
//
// One implementation, in CommonJS; ES modules import it through thin wrappers:
// - esbuild bundles src/{index,client,seller,sandbox}.ts with code splitting (shared code in
//   dist/lib/chunks/, packages left to node_modules), then each file becomes CommonJS the way
//   scripts/bundle.mjs does it. dist/lib/package.json says `"type": "commonjs"`.
// - `<entry>.mjs` re-exports the CommonJS module's names, so `import` and `require` reach the
//   same classes: an error thrown under one is `instanceof` the class imported by the other
//   (no dual-package hazard).
// - Declarations: tsc (tsconfig.build.json) writes a .d.ts beside each compiled file in dist/;
//   the ones the entry points reach are copied beside the CommonJS files (CommonJS declarations,
//   by dist/lib/package.json), and `<entry>.d.mts` re-exports them for `import`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeAsCommonJs } from './commonjs-output.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'lib');
const ENTRIES = ['index', 'client', 'seller', 'sandbox'];

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, `src/${name}.ts`])),
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  write: false,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await writeAsCommonJs(result.outputFiles);
fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "commonjs" }\n');

// The ES module wrappers: every name the entry exports, taken from the CommonJS module.
for (const name of ENTRIES) {
  const output = result.metafile.outputs[path.relative(root, path.join(outdir, `${name}.js`))];
  const names = [...(output?.exports ?? [])].sort();
  if (names.length === 0) throw new Error(`dist/lib/${name}.js exports nothing: is src/${name}.ts an entry point?`);
  const wrapper = [
    `// ES module entry of kactl${name === 'index' ? '' : `/${name}`}: the CommonJS build's own objects (scripts/build-lib.mjs).`,
    `import lib from './${name}.js';`,
    '',
    ...names.map((exported) => `export const ${exported} = lib.${exported};`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(outdir, `${name}.mjs`), wrapper);
  fs.writeFileSync(path.join(outdir, `${name}.d.mts`), `export * from './${name}.js';\n`);
}

// Declarations: from dist/<file>.d.ts, every one an entry point reaches through relative imports.
const declared = path.join(root, 'dist');
const reached = new Set();
const queue = ENTRIES.map((name) => `${name}.d.ts`);
while (queue.length > 0) {
  const relative = queue.shift();
  if (reached.has(relative)) continue;
  const source = path.join(declared, relative);
  if (!fs.existsSync(source)) throw new Error(`${path.relative(root, source)} is missing: run tsc -p tsconfig.build.json first (npm run build).`);
  reached.add(relative);
  const text = fs.readFileSync(source, 'utf8');
  for (const match of text.matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
    queue.push(path.join(path.dirname(relative), `${match[1]}.d.ts`));
  }
  const target = path.join(outdir, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
}
