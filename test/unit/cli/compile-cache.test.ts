/**
 * Node >= 22's compile cache as bin/kactl.js sets it up: never Node's default folder in the temp
 * folder (`node-compile-cache`, shared by every user, owned by whoever ran Node first), never a
 * folder another user made under kactl's name; NODE_COMPILE_CACHE only when the user set it.
 *
 * The attack is played for real by a second Unix account: in a shared temp folder it makes
 * `node-compile-cache/` first and plants an entry for kactl's `cli.cjs` holding V8 code compiled
 * from its own source of the same length (V8 checks only the length; Node checks a CRC-32 of the
 * source, which anyone who can read kactl computes). Before, `kactl profile list` run as root
 * printed the other user's marker and exited 42.
 *
 * Runs on Node >= 22 (CI's second run is Node 24); Node 20 has no module.enableCompileCache, and
 * its own cache is tested in code-cache.test.ts (the folder another user made first is refused
 * on both).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { otherUser, otherUserSkip } from '../../helpers/other-user.js';
import { KACTL_BIN, cleanEnv } from '../../helpers/run-kactl.js';
import { tempDir } from '../../helpers/temp-dir.js';

const CLI = path.join(path.dirname(KACTL_BIN), '..', 'dist', 'bundle', 'cli.cjs');
const MAJOR = Number(process.versions.node.split('.')[0]);
const skip = MAJOR < 22 ? `Node ${process.version} has no module.enableCompileCache (the Node 20 cache is tested in code-cache.test.ts)` : otherUserSkip();
const MARKER = 'PLANTED BY ANOTHER USER';

/**
 * What the other user runs with Node: compiles its own same-length source with Node's cache in a
 * folder of its own, then writes that V8 code under the name Node gives kactl's cli.cjs (a CRC-32
 * of the type byte and the path) in the shared folder, with a header naming kactl's source.
 */
const PLANT = `
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const [shared, work, length, sourceCrc, target, rootUid] = process.argv.slice(1);
// Eight hex digits, zero-padded as Node writes them (unpadded, one path in 16 got another name).
const name = (file) => zlib.crc32(Buffer.concat([Buffer.from([0]), Buffer.from(file)])).toString(16).padStart(8, '0');
let source = "process.stdout.write('${MARKER}\\\\n'); module.exports = { main: async () => 42 };";
source += ' '.repeat(Number(length) - source.length);
const evil = path.join(work, 'cli.cjs');
fs.writeFileSync(evil, source);
const own = path.join(work, 'cache');
const made = spawnSync(process.execPath, [evil], { env: { NODE_COMPILE_CACHE: own }, encoding: 'utf8' });
if (!made.stdout.includes('${MARKER}')) throw new Error('the planted source did not run: ' + made.stderr);
const [sub] = fs.readdirSync(own);
const entry = fs.readFileSync(path.join(own, sub, name(evil)));
const code = entry.subarray(20);
const header = Buffer.alloc(20);
entry.copy(header, 0, 0, 4); // Node's magic number
header.writeUInt32LE(Number(length), 4);
header.writeUInt32LE(code.length, 8);
header.writeUInt32LE(Number(sourceCrc), 12);
header.writeUInt32LE(zlib.crc32(code), 16);
// Node's folder for root: the same build tag, root's uid at the end.
const rootSub = path.join(shared, 'node-compile-cache', sub.replace(/-\\d+$/, '-' + rootUid));
fs.mkdirSync(rootSub, { recursive: true, mode: 0o777 });
fs.chmodSync(path.join(shared, 'node-compile-cache'), 0o777);
fs.chmodSync(rootSub, 0o777);
fs.writeFileSync(path.join(rootSub, name(target)), Buffer.concat([header, code]), { mode: 0o666 });
process.stdout.write(rootSub);
`;

function kactl(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [KACTL_BIN, ...args], { env: cleanEnv(tempDir(), env), encoding: 'utf8', timeout: 60_000 });
}

describe('the compile cache on Node >= 22', () => {
  it.skipIf(skip !== undefined)(`runs no code another user planted in Node's shared folder${skip ? ` (skipped: ${skip})` : ''}`, () => {
    const other = otherUser();
    const shared = tempDir('kactl-shared-tmp-');
    fs.chmodSync(shared, 0o1777);
    const work = path.join(shared, 'other-user');
    fs.mkdirSync(work, { mode: 0o700 });
    other.own(work);
    // What the other user can read of an installed kactl: its size and a CRC-32 of its text.
    const source = fs.readFileSync(CLI);
    const planted = other.run(other.node(), ['-e', PLANT, shared, work, String(source.length), String(zlib.crc32(source)), CLI, String(process.getuid!())]);
    expect(planted.status, planted.stderr).toBe(0);
    const rootSub = planted.stdout;
    // The plant works: plain Node, pointed at that folder, runs the other user's code as kactl's
    // cli.cjs (without this, a plant under a name Node never reads would pass the checks below).
    const control = spawnSync(process.execPath, [CLI], { env: { NODE_COMPILE_CACHE: path.join(shared, 'node-compile-cache') }, encoding: 'utf8', timeout: 30_000 });
    expect(control.stdout, control.stderr).toContain(MARKER);
    const before = fs.readdirSync(rootSub);

    const result = kactl(['profile', 'list'], { TMPDIR: shared });
    expect(result.stdout).not.toContain(MARKER);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('No profiles yet');
    // Nothing read from or written to the other user's folder; the cache is in kactl's own.
    expect(fs.readdirSync(rootSub)).toEqual(before);
    const own = fs.readdirSync(shared).find((name) => name.startsWith('kactl-code-cache-'));
    expect(own).toBeDefined();
    const stat = fs.statSync(path.join(shared, own!));
    expect([stat.uid, stat.mode & 0o777]).toEqual([process.getuid!(), 0o700]);
    expect(fs.readdirSync(path.join(shared, own!))).not.toEqual([]);
  }, 120_000);

  // Node 20's cache (bin/code-cache.js) keeps the same folder rule: this runs on both.
  const skipSquat = otherUserSkip();
  it.skipIf(skipSquat !== undefined)(`uses no folder another user made under kactl's name, and still runs${skipSquat ? ` (skipped: ${skipSquat})` : ''}`, () => {
    const other = otherUser();
    const shared = tempDir('kactl-shared-tmp-');
    fs.chmodSync(shared, 0o1777);
    const squatted = path.join(shared, `kactl-code-cache-${process.getuid!()}-${process.version}-${process.arch}`);
    other.sh(`mkdir -m 777 '${squatted}'`);
    const result = kactl(['profile', 'list'], { TMPDIR: shared });
    expect(result.status, result.stderr).toBe(0);
    expect(fs.readdirSync(squatted)).toEqual([]);
    expect(fs.readdirSync(shared)).toEqual([path.basename(squatted)]);
  }, 60_000);

  it.skipIf(MAJOR < 22)('keeps its cache under $XDG_CACHE_HOME/kactl when that is set, and NODE_COMPILE_CACHE when the user sets it', () => {
    const xdg = tempDir();
    expect(kactl(['profile', 'list'], { XDG_CACHE_HOME: xdg }).status).toBe(0);
    expect(fs.readdirSync(path.join(xdg, 'kactl'))).toEqual([`code-cache-${process.version}-${process.arch}`]);
    expect(fs.statSync(path.join(xdg, 'kactl')).mode & 0o777).toBe(0o700);
    const chosen = tempDir();
    expect(kactl(['profile', 'list'], { NODE_COMPILE_CACHE: chosen, XDG_CACHE_HOME: xdg }).status).toBe(0);
    expect(fs.readdirSync(chosen)).not.toEqual([]);
  }, 60_000);
});
