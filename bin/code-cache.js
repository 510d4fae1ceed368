// V8's code cache for the bundle on Node < 22.1, which lacks module.enableCompileCache(): each
// chunk of dist/bundle/ is compiled with the code V8 saved on an earlier run, so a command skips
// parsing and compiling what it ran before (~25 ms of a `kactl licenses list` on Node 20,
// bench/cold-start.mjs). What it does is what Node 22's built-in cache does for us there.
//
// The cache is code this process will run, so it lives only in a folder that is ours alone
// (created 0700, checked to be owned by us and closed to others); otherwise nothing is cached.
// V8 itself refuses data made by another V8 or with other flags, but it checks only a
// source's length, not its text: the key holds each file's size and modification time, so a
// rebuilt chunk never meets the code of its previous build. NODE_DISABLE_COMPILE_CACHE=1 turns
// it off, as it does Node's own cache.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

/**
 * Compiles the files under `bundleDir` with a code cache kept in `cacheDir`. Returns what it did
 * so far (for tests): the cache files used, and those made (written at exit).
 */
function useCodeCache(bundleDir, cacheDir) {
  const report = { enabled: false, used: [], made: [] };
  if (!privateFolder(cacheDir)) return report;
  report.enabled = true;
  const prefix = bundleDir.endsWith(path.sep) ? bundleDir : bundleDir + path.sep;
  const fresh = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const cacheFile = path.join(cacheDir, cacheName(filename, fs.statSync(filename)));
    let cachedData;
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      // Not cached yet: compiled from source, and saved at exit.
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) {
      fresh.push({ script, cacheFile });
      report.made.push(path.basename(cacheFile));
    } else {
      report.used.push(path.basename(cacheFile));
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    const localRequire = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, localRequire, this, filename, path.dirname(filename));
  };
  // At exit the scripts also hold the functions this run compiled lazily, which is most of
  // what a command costs to compile.
  process.once('exit', () => {
    for (const { script, cacheFile } of fresh) {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, cacheFile);
      } catch {
        // A cache that can't be written only costs speed next time.
        fs.rmSync(temporary, { force: true });
      }
    }
    // Something new was compiled, so the bundle may have been rebuilt or upgraded: its old
    // chunks' caches would otherwise stay in the temp folder for good.
    if (fresh.length > 0) pruneCache(bundleDir, cacheDir);
  });
  return report;
}

/** A bundle file's cache: its name, size and modification time (V8 checks only the length). */
function cacheName(filename, stat) {
  return `${path.basename(filename)}.${stat.size}.${Math.trunc(stat.mtimeMs)}.v8`;
}

/**
 * Another kactl of the same Node (another checkout, another version) shares the folder, so what
 * this bundle does not have is removed only once it is an hour old: a kactl in use elsewhere
 * makes its cache again at most once an hour, and this folder holds one bundle's worth, not one
 * per build ever run.
 */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

function pruneCache(bundleDir, cacheDir) {
  try {
    const current = new Set();
    for (const name of fs.readdirSync(bundleDir, { recursive: true })) {
      const filename = path.join(bundleDir, name);
      if (!filename.endsWith('.cjs')) continue;
      current.add(cacheName(filename, fs.statSync(filename)));
    }
    const before = Date.now() - PRUNE_AFTER_MS;
    for (const name of fs.readdirSync(cacheDir)) {
      if (current.has(name) || !(name.endsWith('.v8') || name.endsWith('.tmp'))) continue;
      const entry = path.join(cacheDir, name);
      if (fs.statSync(entry).mtimeMs < before) fs.rmSync(entry, { force: true });
    }
  } catch {
    // A bundle file or an entry removed meanwhile: pruning waits for the next new compile.
  }
}

/**
 * Makes `dir` (mode 0700) if needed; true only when it is a folder owned by us that others can't
 * write to or read. Its parent must be one others can't rename it in (the temp folder, sticky).
 */
function privateFolder(dir) {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') return false;
  }
  try {
    const stat = fs.lstatSync(dir);
    const ours = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    return stat.isDirectory() && ours && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The cache folder: one per user and Node build, directly in the temp folder. */
function defaultCacheDir() {
  const user = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(require('node:os').tmpdir(), `kactl-code-cache-${user}-${process.version}-${process.arch}`);
}

module.exports = { useCodeCache, defaultCacheDir };
