// Where kactl keeps V8's code cache for its bundle (Node >= 22.1: module.enableCompileCache;
// Node 20: bin/code-cache.js), and the rule that makes it safe to run code from there.
//
// A code cache is code this process will run, and V8 checks only a source's length before it
// accepts one. So the folder must be one no other local user can write to, now or later:
// - made 0700 if missing; a directory (not a link) owned by us, closed to group and others;
// - every folder above it owned by us or root, and writable by nobody else unless sticky (as
//   /tmp is): otherwise its owner or a group member could rename our folder away and put one of
//   theirs in its place between two reads (lazily loaded chunks are read long after start).
// Anything else (a folder another user made first under our name, a temp folder others may
// write to) means no cache for this run: it costs speed, never safety.
//
// Node's own default (`node-compile-cache` in the temp folder) is shared by every user, owned by
// whoever ran Node first; it is never used. NODE_COMPILE_CACHE, when the user sets it, is taken
// by Node at start, before this runs (docs/architecture.md, "Build and start-up").
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT_UID = 0;

/** The folder: `$XDG_CACHE_HOME/kactl/…` when that is set, else one per user in the temp folder. */
function cacheFolder() {
  const build = `${process.version}-${process.arch}`;
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'kactl', `code-cache-${build}`);
  const user = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(require('node:os').tmpdir(), `kactl-code-cache-${user}-${build}`);
}

/** Folders others may not rename entries in: sticky, or writable only by their owner. */
function trustedAncestor(stat, uid) {
  const owner = stat.uid === uid || stat.uid === ROOT_UID;
  const othersWrite = (stat.mode & 0o022) !== 0;
  return stat.isDirectory() && owner && (!othersWrite || (stat.mode & 0o1000) !== 0);
}

/**
 * Makes `dir` (0700) if needed and returns its real path when it follows the rule above, or
 * undefined. The real path is what the caller uses from then on: a link on the way can't be
 * changed to point elsewhere later.
 */
function privateFolder(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  try {
    const real = path.join(fs.realpathSync.native(path.dirname(dir)), path.basename(dir));
    const stat = fs.lstatSync(real);
    if (typeof process.getuid !== 'function') return stat.isDirectory() ? real : undefined;
    const uid = process.getuid();
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    for (let above = path.dirname(real); ; above = path.dirname(above)) {
      if (!trustedAncestor(fs.lstatSync(above), uid)) return undefined;
      if (path.dirname(above) === above) return real;
    }
  } catch {
    return undefined;
  }
}

module.exports = { cacheFolder, privateFolder };
