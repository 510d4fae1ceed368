// Bundles the CLI into dist/bundle/ (code splitting): `kactl --version` reads one small file,
// and each command group loads only its own chunk and the packages it uses, instead of hundreds
// of separate modules (undici alone is ~130 files). tsc still type-checks and still emits dist/
// for the sandbox entry points the tests and benchmarks import directly.
//
// esbuild splits only ES modules, but the files are then turned into CommonJS (`.cjs`): a
// networked command loads ~35 chunks, and Node's ESM loader (URL resolution, file reads through
// promises, module jobs linked in turns) cost each of them far more than require() does — about
// 30 ms of a `kactl licenses list` on Node 20 and on Node 24 (bench/cold-start.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeAsCommonJs } from './commonjs-output.mjs';
import { packChunks } from './pack-chunks.mjs';

// Two packages load a Node module at start that a CLI run does not use: commander loads
// child_process (only for executable subcommands, which kactl has none of), and undici's HTTP/2
// client loads http2 (and with it tls) for its header-name constants. Each becomes a load on
// first use; the constants are copied from this node's http2. The build fails if the text
// replaced is not there any more (a package update), rather than bundle it unchanged.
const require = createRequire(import.meta.url);
const LAZY_BUILTINS = [
  {
    file: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    file: /node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    from: "  http2 = require('node:http2')\n",
    to: `  http2 = { constants: ${JSON.stringify(require('node:http2').constants)}, connect: (...args) => require('node:http2').connect(...args) }\n`,
  },
];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    for (const { file, from, to } of LAZY_BUILTINS) {
      pluginBuild.onLoad({ filter: file }, async (args) => {
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes(from)) throw new Error(`${args.path} no longer contains ${JSON.stringify(from)}: update scripts/bundle.mjs`);
        return { contents: source.replace(from, to), loader: 'js' };
      });
    }
  },
};

// Node 20's V8 compiles undici's WebAssembly HTTP parser a second time, optimised, in the
// background, and the process waits for that before it exits: ~0.4 s after a command that used
// undici. The baseline compiler alone parses a CLI's few answers just as well (Node 22 and later
// tier up lazily and exit at once). undici loads only for answers read as they arrive and
// src/api/undici-parts.ts is its one door, so the CLI's bundle sets the flag there, when it loads:
// not in the library (dist/lib), where it would change the program's own WebAssembly.
const UNDICI_PARTS = /[\\/]src[\\/]api[\\/]undici-parts\.ts$/;
const undiciLiftoff = {
  name: 'undici-liftoff',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: UNDICI_PARTS }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const flag = "import v8ForUndici from 'node:v8';\nif (process.versions.node.startsWith('20.')) v8ForUndici.setFlagsFromString('--liftoff-only');\n";
      return { contents: `${flag}${source}`, loader: 'ts' };
    });
  },
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'bundle');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addon: it finds its .node file relative to its own package, so it stays a package.
  // jq-wasm reads its jq.wasm from its own package folder, so it stays a package too (src/io/jq.ts).
  external: ['better-sqlite3', 'jq-wasm'],
  define: { KACTL_BUNDLED_VERSION: JSON.stringify(version) },
  chunkNames: 'chunks/[name]-[hash]',
  // The names the files have once they are CommonJS (below), so imports between them and the
  // metafile already use them.
  outExtension: { '.js': '.cjs' },
  write: false,
  metafile: true,
  plugins: [lazyBuiltins, undiciLiftoff],
  legalComments: 'none',
  logLevel: 'warning',
});
// Each ES module chunk becomes CommonJS (scripts/commonjs-output.mjs), then the small ones one
// file (scripts/pack-chunks.mjs).
await writeAsCommonJs(result.outputFiles);
packChunks(outdir, result.outputFiles.map((file) => file.path), result.metafile, path.relative(root, outdir).split(path.sep).join('/'));
// Which sources each output file holds: test/unit/cold-start.test.ts maps loaded chunks back to
// the packages inside them with it.
fs.writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(result.metafile));

// Answers bin/kactl.js gives before the bundle loads: `kactl --version`, and `kactl [command…]
// --help` when its output is not a terminal (commander then wraps at 80 columns, without
// colour). Each help is commander's own text, printed by the bundle just built, in a child
// process whose stdout is a pipe, for every command of the tree; test/unit/cli/static-help.test.ts
// checks they equal what the sources print.
fs.writeFileSync(path.join(outdir, 'version.txt'), version);
const help = spawnSync(process.execPath, ['scripts/write-help.mjs', path.join(outdir, 'help')], { cwd: root, env: {}, encoding: 'utf8' });
if (help.status !== 0 || help.stderr !== '') throw new Error(`writing the help texts failed (exit ${help.status}): ${help.stderr}`);
