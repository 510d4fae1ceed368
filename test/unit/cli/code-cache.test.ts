/**
 * bin/code-cache.js: the code cache the launcher keeps for the bundle (every Node line). Each case runs
 * a child node that installs it for a folder of small CommonJS files and requires one.
 *
 * What another local user must not get it to run (issue 21 item 16): an entry that is not ours
 * alone (another owner, open to others, a second hard link: what a swapped-in folder would
 * hold), a cache in a folder whose parent others may write to without the sticky bit, and the
 * entries of another install of the same bundle.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { otherUser, otherUserSkip } from '../../helpers/other-user.js';
import { tempDir } from '../../helpers/temp-dir.js';

// From the tree, not the build: the launcher's files are not built.
const CODE_CACHE = path.resolve(import.meta.dirname, '../../../bin/code-cache.js');

interface Run {
  value: unknown;
  report: { enabled: boolean; used: string[]; made: string[]; refused?: string[] };
}

/** Requires `file` from `bundle` with the cache in `cache`; the child prints its value and the cache's report. */
function run(bundle: string, cache: string, file = 'answer.cjs', command = ''): Run {
  const script = `
    const report = require(${JSON.stringify(CODE_CACHE)}).useCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}, ${JSON.stringify(command)});
    const value = require(${JSON.stringify(path.join(bundle, file))});
    process.stdout.write(JSON.stringify({ value, report }));`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Run;
}

function bundleWith(source: string): string {
  const bundle = path.join(tempDir(), 'bundle');
  fs.mkdirSync(bundle);
  fs.writeFileSync(path.join(bundle, 'answer.cjs'), source);
  return bundle;
}

describe('the code cache', () => {
  it('saves each file it compiled at exit, in a 0700 folder, and uses it on the next run', () => {
    const bundle = bundleWith('module.exports = require("./part.cjs") + 1;');
    fs.writeFileSync(path.join(bundle, 'part.cjs'), 'module.exports = 41;');
    const cache = path.join(tempDir(), 'cache');

    const first = run(bundle, cache);
    expect(first.value).toBe(42);
    expect(first.report.made.map((name) => name.split('.')[0]).sort()).toEqual(['answer', 'part']);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(cache)) expect(fs.statSync(path.join(cache, name)).mode & 0o777).toBe(0o600);

    const second = run(bundle, cache);
    expect(second.value).toBe(42);
    expect(second.report.used.sort()).toEqual(first.report.made.sort());
    expect(second.report.made).toEqual([]);
  });

  it('saves a cache again, once, for a command that has not saved it yet (it holds what that command compiled too)', () => {
    const bundle = bundleWith('module.exports = "shared";');
    const cache = path.join(tempDir(), 'cache');
    const [name] = run(bundle, cache, 'answer.cjs', 'licenses').report.made;
    expect(run(bundle, cache, 'answer.cjs', 'licenses').report).toMatchObject({ used: [name], made: [] });
    // Another command uses it, and saves it again with its own work added; then neither saves it.
    expect(run(bundle, cache, 'answer.cjs', 'client').report).toMatchObject({ used: [name], made: [name] });
    expect(run(bundle, cache, 'answer.cjs', 'client').report).toMatchObject({ used: [name], made: [] });
    expect(run(bundle, cache, 'answer.cjs', 'licenses').report).toMatchObject({ used: [name], made: [] });
    expect(fs.readFileSync(path.join(cache, name!)).toString('latin1').split('\n')[0]).toBe('kactl-code-cache 2 ["licenses","client"]');
    // A dozen commands at most: then it stays as it is.
    for (let i = 0; i < 10; i += 1) run(bundle, cache, 'answer.cjs', `command-${i}`);
    expect(run(bundle, cache, 'answer.cjs', 'one-more').report).toMatchObject({ used: [name], made: [] });
  });

  it('never runs the code of a file as it was before a rebuild, even one of the same length', () => {
    const bundle = bundleWith('module.exports = 1;');
    const cache = path.join(tempDir(), 'cache');
    expect(run(bundle, cache).value).toBe(1);
    // V8 checks only a source's length: the modification time in the key is what tells them apart.
    const file = path.join(bundle, 'answer.cjs');
    fs.writeFileSync(file, 'module.exports = 2;');
    const later = new Date(fs.statSync(file).mtimeMs + 5_000);
    fs.utimesSync(file, later, later);
    const rebuilt = run(bundle, cache);
    expect(rebuilt.value).toBe(2);
    expect(rebuilt.report.used).toEqual([]);
  });

  it('makes a new cache over a damaged one, and still runs', () => {
    const bundle = bundleWith('module.exports = "fine";');
    const cache = path.join(tempDir(), 'cache');
    run(bundle, cache);
    const [name] = fs.readdirSync(cache);
    fs.writeFileSync(path.join(cache, name!), 'not V8 code at all');
    const damaged = run(bundle, cache);
    expect(damaged.value).toBe('fine');
    expect(damaged.report.made).toEqual([name]);
    expect(run(bundle, cache).report.used).toEqual([name]);
  });

  it('once it compiles something new, removes what the bundle no longer has, if it is an hour old', () => {
    const bundle = bundleWith('module.exports = "v1";');
    const cache = path.join(tempDir(), 'cache');
    const [v1] = run(bundle, cache).report.made;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const entry = (name: string, age: number) => {
      fs.writeFileSync(path.join(cache, name), 'cache of another build');
      fs.utimesSync(path.join(cache, name), hoursAgo(age), hoursAgo(age));
    };
    entry('gone-OLDHASH.cjs.100.1000.v8', 2); // a chunk of an earlier build
    entry('gone-OLDHASH.cjs.100.1000.v8.123.tmp', 2); // a write cut short
    entry('elsewhere-HASH.cjs.100.1000.v8', 0); // another kactl, in use a minute ago
    entry('notes.txt', 2); // not ours to judge
    fs.utimesSync(path.join(cache, v1!), hoursAgo(2), hoursAgo(2));

    // Nothing new to compile: nothing is pruned.
    expect(run(bundle, cache).report.made).toEqual([]);
    expect(fs.readdirSync(cache)).toContain('gone-OLDHASH.cjs.100.1000.v8');

    const file = path.join(bundle, 'answer.cjs');
    fs.writeFileSync(file, 'module.exports = "version 2";');
    const [v2] = run(bundle, cache).report.made;
    expect(fs.readdirSync(cache).sort()).toEqual(['elsewhere-HASH.cjs.100.1000.v8', 'notes.txt', v2!].sort());
  });

  it('caches nothing in a folder others may write to, and runs all the same', () => {
    const bundle = bundleWith('module.exports = "open";');
    const cache = path.join(tempDir(), 'cache');
    fs.mkdirSync(cache);
    fs.chmodSync(cache, 0o777);
    const result = run(bundle, cache);
    expect(result.value).toBe('open');
    expect(result.report.enabled).toBe(false);
    expect(fs.readdirSync(cache)).toEqual([]);
  });

  it('leaves files outside the bundle folder to Node', () => {
    const bundle = bundleWith('module.exports = require("../outside.cjs");');
    fs.writeFileSync(path.join(bundle, '..', 'outside.cjs'), 'module.exports = "outside";');
    const result = run(bundle, path.join(tempDir(), 'cache'));
    expect(result.value).toBe('outside');
    expect(result.report.made.map((name) => name.split('.')[0])).toEqual(['answer']);
  });
});

describe('the code cache and other local users', () => {
  it('caches nothing when the parent folder is open to others without the sticky bit; a sticky one is fine', () => {
    const bundle = bundleWith('module.exports = "parent";');
    const open = path.join(tempDir(), 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    const refused = run(bundle, path.join(open, 'cache'));
    expect(refused.value).toBe('parent');
    expect(refused.report.enabled).toBe(false);
    fs.chmodSync(open, 0o1777);
    expect(run(bundle, path.join(open, 'cache2')).report.enabled).toBe(true);
  });

  it('never uses an entry open to others or with a second hard link: it compiles anew and replaces it', () => {
    const bundle = bundleWith('module.exports = "mine";');
    const cache = path.join(tempDir(), 'cache');
    const [name] = run(bundle, cache).report.made;
    const entry = path.join(cache, name!);
    fs.chmodSync(entry, 0o644);
    const opened = run(bundle, cache);
    expect(opened.report).toMatchObject({ used: [], refused: [name], made: [name] });
    expect(fs.statSync(entry).mode & 0o777).toBe(0o600);
    expect(run(bundle, cache).report.used).toEqual([name]);

    fs.linkSync(entry, path.join(tempDir(), 'second-link'));
    const linked = run(bundle, cache);
    expect(linked.report).toMatchObject({ used: [], refused: [name] });
  });

  const skip = otherUserSkip();
  it.skipIf(skip !== undefined)(`never uses an entry another user owns${skip ? ` (skipped: ${skip})` : ''}`, () => {
    const bundle = bundleWith('module.exports = "mine";');
    const cache = path.join(tempDir(), 'cache');
    const [name] = run(bundle, cache).report.made;
    otherUser().own(path.join(cache, name!));
    const result = run(bundle, cache);
    expect(result.value).toBe('mine');
    expect(result.report).toMatchObject({ used: [], refused: [name] });
  });

  it('keys entries by the bundle\'s real path: another install with equal names, sizes and times shares none', () => {
    const first = bundleWith('module.exports = "install one";');
    const second = path.join(tempDir(), 'bundle');
    fs.cpSync(first, second, { recursive: true });
    const same = new Date(1_700_000_000_000);
    for (const bundle of [first, second]) fs.utimesSync(path.join(bundle, 'answer.cjs'), same, same);
    const cache = path.join(tempDir(), 'cache');
    const [made] = run(first, cache).report.made;
    const other = run(second, cache);
    expect(other.report.used).toEqual([]);
    expect(other.report.made).not.toContain(made);
    expect(run(first, cache).report.used).toEqual([made]);
  });
});
