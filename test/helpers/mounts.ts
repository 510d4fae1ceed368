/**
 * Real full and read-only file systems for the tests of what kactl says when it cannot write: a
 * small tmpfs (`mount -t tmpfs -o size=…`) and a read-only bind mount of a folder. Both need
 * root (CI runs as root); elsewhere `mountSupport()` says why they cannot be made, and the tests
 * skip with that reason printed. Everything mounted is unmounted after the test file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanUpAfterEachFile } from './cleanup.js';
import { tempDir } from './temp-dir.js';

const mounted: string[] = [];

function unmountAll(): void {
  // Innermost first; lazily, so a file still open (a crashed child) cannot keep a mount behind.
  for (const target of mounted.splice(0).reverse()) spawnSync('umount', ['-l', target]);
}

cleanUpAfterEachFile(unmountAll);
process.once('exit', unmountAll);

function mount(args: readonly string[]): void {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mount ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim()}`);
}

let support: string | undefined | null = null;

/** Undefined when tmpfs and read-only bind mounts can be made here, else why not. */
export function mountSupport(): string | undefined {
  if (support !== null) return support;
  if (process.platform !== 'linux') return (support = `mounts need Linux (this is ${process.platform})`);
  if (process.getuid?.() !== 0) return (support = 'mounting a tmpfs or a read-only bind mount needs root');
  try {
    const probe = tempDir('kactl-mount-probe-');
    mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
    spawnSync('umount', [probe]);
    support = undefined;
  } catch (error) {
    support = (error as Error).message;
  }
  if (support !== undefined) console.warn(`skipping the full-disk and read-only tests: ${support}`);
  return support;
}

/** A new tmpfs of `bytes` (rounded up to pages by the kernel). */
export function smallDisk(bytes: number): string {
  const dir = tempDir('kactl-tmpfs-');
  mount(['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  mounted.push(dir);
  return dir;
}

/** Fills `dir`'s file system until only about `leave` bytes are free. */
export function fillDisk(dir: string, leave: number): void {
  const { bavail, bsize } = fs.statfsSync(dir);
  const fill = Math.max(0, bavail * bsize - leave);
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  try {
    const chunk = Buffer.alloc(Math.min(fill, 1 << 20), 0x2e);
    for (let written = 0; written < fill; ) written += fs.writeSync(fd, chunk, 0, Math.min(chunk.length, fill - written));
  } finally {
    fs.closeSync(fd);
  }
}

/** `dir` made read-only in place (a read-only bind mount of itself): writes fail with EROFS. */
export function makeReadOnly(dir: string): void {
  mount(['--bind', dir, dir]);
  mounted.push(dir);
  mount(['-o', 'remount,bind,ro', dir]);
}
