// esbuild splits only ES modules; both builds (scripts/bundle.mjs for the CLI,
// scripts/build-lib.mjs for the library) then turn every output file into CommonJS: imports
// become require() of the sibling files, a dynamic import() a require() in a resolved promise
// (still loaded only when reached), and import.meta.url the file's own URL. "use strict" keeps
// the semantics the code had as a module. scripts/bundle.mjs says why CommonJS.
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

// esbuild's interop helpers, as it writes them into every converted file, and cheaper ones with
// the same meaning for how the bundle uses them. Each file's exports are an object of getters
// (`__export`); esbuild copies them into another object of getters (`__toCommonJS`), and copies
// every property of a required module into a new object to add `default` (`__toESM`): ~100
// getters for `import fs from 'node:fs'`, in each file that imports it, at every start. Here the
// exports object itself is marked and exported, and `default` is added to an object that
// inherits the module's properties instead of copying them. The build fails if esbuild writes
// them otherwise (an update), rather than leave the files slower unnoticed.
const INTEROP = [
  {
    from: 'var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);',
    to: 'var __toCommonJS = (mod) => __defProp(mod, "__esModule", { value: true });',
  },
  {
    from: `var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));`,
    to: `var __toESM = (mod, isNodeMode) => !isNodeMode && mod && mod.__esModule ? mod : __defProp(__create(mod !== null && (typeof mod === "object" || typeof mod === "function") ? mod : null), "default", { value: mod, enumerable: true });`,
  },
];

/** The converted text with esbuild's interop helpers replaced (INTEROP), and how many were. */
function cheaperInterop(code) {
  let result = code;
  let replaced = 0;
  for (const { from, to } of INTEROP) {
    const parts = result.split(from);
    replaced += parts.length - 1;
    result = parts.join(to);
  }
  return { code: result, replaced };
}

/** Writes each of esbuild's `outputFiles` (ES modules, `write: false`) as CommonJS. */
export async function writeAsCommonJs(outputFiles) {
  let replaced = 0;
  for (const file of outputFiles) {
    // import.meta.url becomes the file's URL, computed only in the files that use it.
    const usesOwnUrl = file.text.includes('import.meta.url');
    const converted = await transform(file.text, {
      loader: 'js',
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__kactlModuleUrl' },
      banner: usesOwnUrl ? '"use strict";\nconst __kactlModuleUrl = require("node:url").pathToFileURL(__filename).href;' : '"use strict";',
      logLevel: 'warning',
    });
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const cheaper = cheaperInterop(converted.code);
    replaced += cheaper.replaced;
    fs.writeFileSync(file.path, cheaper.code);
  }
  // Every file exports through __toCommonJS (a file that renamed it keeps esbuild's own): none
  // replaced means esbuild changed how it writes them.
  if (outputFiles.length > 0 && replaced === 0) throw new Error('esbuild no longer writes its interop helpers as scripts/commonjs-output.mjs expects: update INTEROP');
}
