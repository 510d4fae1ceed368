// esbuild splits only ES modules; both builds (scripts/bundle.mjs for the CLI,
// scripts/build-lib.mjs for the library) then turn every output file into CommonJS: imports
// become require() of the sibling files, a dynamic import() a require() in a resolved promise
// (still loaded only when reached), and import.meta.url the file's own URL. "use strict" keeps
// the semantics the code had as a module. scripts/bundle.mjs says why CommonJS.
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

/** Writes each of esbuild's `outputFiles` (ES modules, `write: false`) as CommonJS. */
export async function writeAsCommonJs(outputFiles) {
  for (const file of outputFiles) {
    const converted = await transform(file.text, {
      loader: 'js',
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__kactlModuleUrl' },
      banner: '"use strict";\nconst __kactlModuleUrl = require("node:url").pathToFileURL(__filename).href;',
      logLevel: 'warning',
    });
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, converted.code);
  }
}
