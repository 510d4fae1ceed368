// Packs the bundle's small chunks into one file (scripts/bundle.mjs runs it after the CommonJS
// conversion). esbuild splits the code at every dynamic import(), so a networked command loads
// some fifty files of a few kilobytes each, and Node spends more on finding, reading and
// compiling each file (with its code cache) than on most of their code: ~0.3 ms a file on Node
// 20 and on 24 (bench/cold-start.mjs). Here every chunk up to PACK_MAX_BYTES becomes a function
// in dist/bundle/pack.cjs, run the first time it is required, as require() runs a file: once,
// in the order asked, a module that requires itself round about seeing its exports as they are
// so far. Code is still loaded lazily: a function V8 only pre-parses costs nearly nothing until
// it runs. The large chunks (the sandbox server, X.509, prompts, YAML, undici…) stay files of
// their own, loaded only by the commands that use them.
//
// Every require() of one bundle file by another goes through the pack's `load(name)`, names
// relative to dist/bundle/ (`chunks/chunk-X.cjs`), so a module runs once whichever file asks.
// A packed module keeps its own file name (__filename, import.meta.url): paths it computes from
// it stay what they were. `loaded()` lists the modules run so far (test/unit/cold-start.test.ts
// maps them back to sources with dist/bundle/meta.json).
import fs from 'node:fs';
import path from 'node:path';

/** A chunk this size or smaller is packed. The files above it are each a package or a subsystem only some commands load. */
export const PACK_MAX_BYTES = 160 * 1024;
export const PACK_FILE = 'pack.cjs';

const RELATIVE_REQUIRE = /\brequire\("(\.\.?\/[^"]+\.cjs)"\)/g;

/** `require("./x.cjs")` in the file `name` (relative to the bundle) as a load of the bundle name it points to. */
function throughLoader(code, name, names) {
  return code.replace(RELATIVE_REQUIRE, (whole, specifier) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), specifier));
    if (!names.has(target)) throw new Error(`${name} requires ${specifier}, which is not a file of the bundle`);
    return `__kactlLoad(${JSON.stringify(target)})`;
  });
}

const RUNTIME = `"use strict";
// Written by scripts/pack-chunks.mjs: the bundle's small chunks, each run on its first load.
const path = require("node:path");
const definitions = new Map();
const modules = new Map();
function load(name) {
  const known = modules.get(name);
  if (known !== undefined) return known.exports;
  const define = definitions.get(name);
  if (define === undefined) {
    const exports = require(path.join(__dirname, name));
    modules.set(name, { exports });
    return exports;
  }
  const module = { exports: {} };
  modules.set(name, module);
  const filename = path.join(__dirname, name);
  define.call(module.exports, module.exports, require, module, filename, path.dirname(filename), load);
  return module.exports;
}
/** The bundle files run so far, in order, by their names relative to the bundle. */
function loaded() {
  return [...modules.keys()];
}
module.exports = { load, loaded };
`;

/**
 * Rewrites the CommonJS files under `outdir` (their paths in `files`): the small chunks into
 * pack.cjs, every other file loading bundle files through it. Returns the packed names.
 */
export function packChunks(outdir, files) {
  const names = new Set(files.map((file) => path.relative(outdir, file).split(path.sep).join('/')));
  const packed = [...names].filter((name) => name.startsWith('chunks/') && fs.statSync(path.join(outdir, name)).size <= PACK_MAX_BYTES).sort();
  const inPack = new Set(packed);
  const parts = [RUNTIME];
  for (const name of packed) {
    const file = path.join(outdir, name);
    const code = throughLoader(fs.readFileSync(file, 'utf8'), name, names);
    parts.push(`definitions.set(${JSON.stringify(name)}, function (exports, require, module, __filename, __dirname, __kactlLoad) {\n${code}\n});\n`);
    fs.rmSync(file);
  }
  fs.writeFileSync(path.join(outdir, PACK_FILE), parts.join(''));
  for (const name of names) {
    if (inPack.has(name)) continue;
    const file = path.join(outdir, name);
    const code = fs.readFileSync(file, 'utf8');
    const pack = path.posix.relative(path.posix.dirname(name), PACK_FILE);
    // After the "use strict" directive, which must stay first.
    const body = code.replace(/^"use strict";\n/, '');
    fs.writeFileSync(file, `"use strict";\nconst __kactlLoad = require(${JSON.stringify(pack.startsWith('.') ? pack : `./${pack}`)}).load;\n${throughLoader(body, name, names)}`);
  }
  return packed;
}
