// Packs the bundle's small chunks into two files (scripts/bundle.mjs runs it after the CommonJS
// conversion). esbuild splits the code at every dynamic import(), so a networked command loaded
// some fifty files of a few kilobytes each, and Node spends more on finding, reading and
// compiling each file (with its code cache) than on most of their code: ~0.3 ms a file on Node
// 20 and on 24 (bench/cold-start.mjs). Here every chunk up to PACK_MAX_BYTES becomes a function
// in a pack, run the first time it is required, as require() runs a file: once, in the order
// asked, a module that requires itself round about seeing its exports as they are so far.
//
// Two packs: dist/bundle/pack.cjs holds what the start and the everyday commands (the seller and
// client groups, the Context, config, the protocol library, output) are made of (HOT), and
// pack-more.cjs the rest, loaded the first time one of its modules is. A pack costs with its
// size even when little of it runs (V8 reads its whole code cache, and pre-parses what is not in
// it), so a networked command reads the first only (~6% fewer instructions than one pack of all).
// The large chunks (the sandbox server, X.509, prompts, YAML, undici…) stay files of their own.
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
export const MORE_PACK_FILE = 'pack-more.cjs';

/**
 * What the start and the everyday commands are made of: a chunk with any of these sources and
 * none of another command group's (COLD), or with no source at all (esbuild's facades and
 * helpers), goes in the first pack. `kactl client check` reads nothing from the second
 * (test/unit/cold-start.test.ts); `kactl licenses list` still reads one chunk there (the seller
 * backup file's, src/state/).
 */
const HOT =
  /^(src\/(cli|program|context|env|errors|error-hints)\.ts|src\/(context|config|io|util|api)\/|src\/commands\/(registry|registration|global-options|parse-errors|raw-params|help|seller|client|completion\/value-source)\b|node_modules\/(commander|chalk|cli-table3|string-width|strip-ansi|ansi-regex|emoji-regex|is-fullwidth-code-point|@colors)\/)/;

/** The command groups other than those HOT names (the sandbox's commands, profiles, state, flows, the demo…). */
const COLD = /^src\/(commands\/(?!(registry|registration|global-options|parse-errors|raw-params|help|seller|client|completion\/value-source)\b)|server\/|sandbox\/|state\/|flows\/)/;

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
/** The modules of the second pack, which it defines when it is first required. */
const elsewhere = new Set(MORE_NAMES);
function load(name) {
  const known = modules.get(name);
  if (known !== undefined) return known.exports;
  let define = definitions.get(name);
  if (define === undefined && elsewhere.has(name)) {
    elsewhere.clear();
    require("./MORE_FILE").defineInto(definitions);
    define = definitions.get(name);
  }
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

/** A pack's text: `definitions.set(name, function (…) { code })` for each module, after `head`. */
function packText(outdir, packed, names, head, tail) {
  const parts = [head];
  for (const name of packed) {
    const file = path.join(outdir, name);
    const code = throughLoader(fs.readFileSync(file, 'utf8'), name, names);
    parts.push(`definitions.set(${JSON.stringify(name)}, function (exports, require, module, __filename, __dirname, __kactlLoad) {\n${code}\n});\n`);
    fs.rmSync(file);
  }
  parts.push(tail);
  return parts.join('');
}

/**
 * Rewrites the CommonJS files under `outdir` (their paths in `files`): the small chunks into the
 * two packs, every other file loading bundle files through the first. `meta` is esbuild's
 * metafile (which sources each chunk holds), whose output names start with `metaDir`. Returns the
 * packed names of each pack.
 */
export function packChunks(outdir, files, meta, metaDir) {
  const names = new Set(files.map((file) => path.relative(outdir, file).split(path.sep).join('/')));
  const small = [...names].filter((name) => name.startsWith('chunks/') && fs.statSync(path.join(outdir, name)).size <= PACK_MAX_BYTES).sort();
  const sources = (name) => Object.keys(meta.outputs[path.posix.join(metaDir, name)]?.inputs ?? {});
  const hot = small.filter((name) => {
    const inputs = sources(name);
    return inputs.length === 0 || (inputs.some((input) => HOT.test(input)) && !inputs.some((input) => COLD.test(input)));
  });
  const more = small.filter((name) => !hot.includes(name));
  const runtime = RUNTIME.replace('MORE_NAMES', JSON.stringify(more)).replace('MORE_FILE', MORE_PACK_FILE);
  fs.writeFileSync(path.join(outdir, PACK_FILE), packText(outdir, hot, names, runtime, 'module.exports = { load, loaded };\n'));
  const moreHead = '"use strict";\n// Written by scripts/pack-chunks.mjs: the small chunks the start and the everyday commands do not use (pack.cjs loads it).\nfunction defineInto(definitions) {\n';
  fs.writeFileSync(path.join(outdir, MORE_PACK_FILE), packText(outdir, more, names, moreHead, '}\nmodule.exports = { defineInto };\n'));
  const packed = new Set(small);
  for (const name of names) {
    if (packed.has(name)) continue;
    const file = path.join(outdir, name);
    const code = fs.readFileSync(file, 'utf8');
    const pack = path.posix.relative(path.posix.dirname(name), PACK_FILE);
    // After the "use strict" directive, which must stay first.
    const body = code.replace(/^"use strict";\n/, '');
    fs.writeFileSync(file, `"use strict";\nconst __kactlLoad = require(${JSON.stringify(pack.startsWith('.') ? pack : `./${pack}`)}).load;\n${throughLoader(body, name, names)}`);
  }
  return { hot, more };
}
