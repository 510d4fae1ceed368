// V8's code cache for the bundle, on every Node line: each file of dist/bundle/ is compiled with
// the code V8 saved on an earlier run, so a command skips parsing and compiling what it ran
// before. Node 22+'s own cache (module.enableCompileCache) keeps only what a file compiles when
// it loads, not the functions it compiles later as they are first called, which is most of what
// a command runs: saved here at exit, they are (bench/cold-start.mjs: ~15% fewer instructions for
// `kactl licenses list` on Node 24 than Node's cache, ~25 ms of a run on Node 20, which has none).
//
// A cache holds what the runs that saved it compiled. One made by `kactl licenses list` lacks what
// `kactl client check` compiles in the same files (the pack of small chunks,
// scripts/pack-chunks.mjs, is one file): each cache names the commands (the first word) it has
// been saved by, and a run of another command saves it again at exit, with what it added, once.
//
// The cache is code this process will run, so it lives only in a folder that is ours alone
// (bin/cache-folder.js: created 0700, owned by us, closed to others, in a parent nobody else can
// rename it in); otherwise nothing is cached. Each cache file is checked again once open
// (fstat: a plain file of ours, closed to others, one link), since lazily loaded chunks are read
// long after start. V8 itself refuses data made by another V8 or with other flags, but it checks
// only a source's length, not its text: the key holds each file's size and modification time, so
// a rebuilt chunk never meets the code of its previous build, and the bundle's real path, so two
// installs never share entries. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const { privateFolder } = require('./cache-folder.js');

/**
 * Compiles the files under `bundleDir` with a code cache kept in `cacheDir`; `run` names the
 * command (its first word) for the caches it saves. Returns what it did so far (for tests): the
 * cache files used, those made or saved again (written at exit), and those found but refused
 * (not ours alone).
 */
function useCodeCache(bundleDir, cacheDir, run = '') {
  const report = { enabled: false, used: [], made: [], refused: [] };
  const folder = privateFolder(cacheDir);
  if (folder === undefined) return report;
  let install;
  try {
    install = installKey(fs.realpathSync.native(bundleDir));
  } catch {
    return report;
  }
  report.enabled = true;
  const prefix = bundleDir.endsWith(path.sep) ? bundleDir : bundleDir + path.sep;
  const toSave = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const cacheFile = path.join(folder, cacheName(filename, fs.statSync(filename), install));
    const cached = readEntry(readOwnFile(cacheFile, report));
    const script = new vm.Script(Module.wrap(content), { filename, cachedData: cached?.data });
    if (cached === undefined || script.cachedDataRejected) {
      toSave.push({ script, cacheFile, runs: [run], fresh: true });
      report.made.push(path.basename(cacheFile));
    } else {
      report.used.push(path.basename(cacheFile));
      // Saved by other commands only: saved again with what this one compiles (for at most
      // MAX_RUNS commands, then it stays as it is).
      if (!cached.runs.includes(run) && cached.runs.length < MAX_RUNS) {
        toSave.push({ script, cacheFile, runs: [...cached.runs, run], fresh: false });
        report.made.push(path.basename(cacheFile));
      }
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    const localRequire = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, localRequire, this, filename, path.dirname(filename));
  };
  // At exit the scripts also hold the functions this run compiled lazily, which is most of
  // what a command costs to compile.
  process.once('exit', () => {
    for (const { script, cacheFile, runs } of toSave) writeEntry(cacheFile, runs, script.createCachedData());
    // Something new was compiled, so the bundle may have been rebuilt or upgraded: its old
    // chunks' caches would otherwise stay in the temp folder for good.
    if (toSave.some((entry) => entry.fresh)) pruneCache(bundleDir, folder, install);
  });
  return report;
}

/** How many commands a cache is saved again for. */
const MAX_RUNS = 12;

/** A cache file: a line naming the commands that saved it (JSON), then V8's data. */
const MAGIC = 'kactl-code-cache 2 ';

function writeEntry(cacheFile, runs, data) {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(runs)}\n`), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, cacheFile);
  } catch {
    // A cache that can't be written only costs speed next time.
    fs.rmSync(temporary, { force: true });
  }
}

/** The commands and V8 data of a cache file's bytes, or undefined when there are none or they are not such a file. */
function readEntry(bytes) {
  if (bytes === undefined) return undefined;
  const newline = bytes.indexOf(10);
  if (newline < 0 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  try {
    const runs = JSON.parse(bytes.toString('utf8', MAGIC.length, newline));
    if (!Array.isArray(runs) || !runs.every((name) => typeof name === 'string')) return undefined;
    return { runs, data: bytes.subarray(newline + 1) };
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a cache file, or undefined when it is missing or not ours alone: opened without
 * following a link, then checked on the open file (so what is checked is what is read).
 */
function readOwnFile(file, report) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    // Not cached yet (or a link): compiled from source, and saved at exit.
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const ours = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (!stat.isFile() || !ours || (stat.mode & 0o077) !== 0 || stat.nlink !== 1) {
      report.refused.push(path.basename(file));
      return undefined;
    }
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = fs.readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** 16 hex characters naming the bundle's real path (FNV-1a, two ways; no crypto to load). */
function installKey(realBundleDir) {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < realBundleDir.length; i += 1) {
    const c = realBundleDir.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x811c9dc5 | 1) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** A bundle file's cache: its name, install, size and modification time (V8 checks only the length). */
function cacheName(filename, stat, install) {
  return `${path.basename(filename)}.${install}.${stat.size}.${Math.trunc(stat.mtimeMs)}.v8`;
}

/**
 * Another kactl of the same Node (another checkout, another version) shares the folder, so what
 * this bundle does not have is removed only once it is an hour old: a kactl in use elsewhere
 * makes its cache again at most once an hour, and this folder holds one bundle's worth, not one
 * per build ever run.
 */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

function pruneCache(bundleDir, cacheDir, install) {
  try {
    const current = new Set();
    for (const name of fs.readdirSync(bundleDir, { recursive: true })) {
      const filename = path.join(bundleDir, name);
      if (!filename.endsWith('.cjs')) continue;
      current.add(cacheName(filename, fs.statSync(filename), install));
    }
    const before = Date.now() - PRUNE_AFTER_MS;
    for (const name of fs.readdirSync(cacheDir)) {
      if (current.has(name) || !(name.endsWith('.v8') || name.endsWith('.tmp'))) continue;
      const entry = path.join(cacheDir, name);
      if (fs.lstatSync(entry).mtimeMs < before) fs.rmSync(entry, { force: true });
    }
  } catch {
    // A bundle file or an entry removed meanwhile: pruning waits for the next new compile.
  }
}

module.exports = { useCodeCache };
