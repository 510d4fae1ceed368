import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Pacer, paceStateFile } from '../../../src/api/pacer.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { makeReadOnly, mountSupport } from '../../helpers/mounts.js';
import { fakeTime } from './helpers/servers.js';

const KEY = 'pacerkeypacerkeypacerkeypacerk01';

describe('Pacer', () => {
  it('shares one budget between two instances (two processes) using the same folder', async () => {
    const dir = tempDir();
    const time = fakeTime();
    const waits: number[] = [];
    const options = { key: KEY, limit: 3, windowMs: 10_000, marginMs: 0, stateDir: dir, now: time.now, sleep: time.sleep, onWait: (ms: number) => void waits.push(ms) };
    const first = new Pacer(options);
    const second = new Pacer(options);

    await first.acquire();
    time.advance(1000);
    await first.acquire();
    time.advance(1000);
    await second.acquire();
    expect(waits).toEqual([]);

    // The fourth call in the window must wait until the first one is 10 s old: 7 s from now.
    time.advance(1000);
    expect(await second.acquire()).toBe(7000);
    expect(waits).toEqual([7000]);

    // And the next one, made by the other instance, waits for the second call to age out.
    expect(await first.acquire()).toBe(1000);
  });

  it('keeps separate budgets for separate keys', async () => {
    const dir = tempDir();
    const time = fakeTime();
    const make = (key: string) => new Pacer({ key, limit: 1, windowMs: 10_000, marginMs: 0, stateDir: dir, now: time.now, sleep: time.sleep });
    await make(KEY).acquire();
    expect(await make(`${KEY.slice(0, -1)}2`).acquire()).toBe(0);
  });

  it('names its state file from a hash of the key and never writes the key', async () => {
    const dir = tempDir();
    await new Pacer({ key: KEY, limit: 5, stateDir: dir }).acquire();
    const file = paceStateFile(dir, KEY);
    expect(fs.readdirSync(dir)).toEqual([file.slice(dir.length + 1)]);
    expect(file).not.toContain(KEY);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('starts afresh when the state file is damaged', async () => {
    const dir = tempDir();
    fs.writeFileSync(paceStateFile(dir, KEY), '{not json');
    expect(await new Pacer({ key: KEY, limit: 1, stateDir: dir }).acquire()).toBe(0);
  });

  it('adds the safety margin to the window', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ key: `${KEY}-margin`, limit: 1, windowMs: 10_000, marginMs: 500, now: time.now, sleep: time.sleep });
    await pacer.acquire();
    expect(await pacer.acquire()).toBe(10_500);
  });

  it('paces in memory without a folder, shared within the process', async () => {
    const time = fakeTime();
    const options = { key: `${KEY}-memory`, limit: 1, windowMs: 5000, marginMs: 0, now: time.now, sleep: time.sleep };
    await new Pacer(options).acquire();
    expect(await new Pacer(options).acquire()).toBe(5000);
  });

  it('does nothing with a limit of 0', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ key: `${KEY}-off`, limit: 0, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 500; i++) await pacer.acquire();
    expect(time.slept).toEqual([]);
  });

  it('paces in memory, saying so once, when the state folder cannot be made', async () => {
    const parent = path.join(tempDir(), 'a-file');
    fs.writeFileSync(parent, '');
    const time = fakeTime();
    const told: string[] = [];
    const pacer = new Pacer({
      key: `${KEY}-unwritable`,
      limit: 2,
      windowMs: 5000,
      marginMs: 0,
      stateDir: path.join(parent, 'pacing'),
      now: time.now,
      sleep: time.sleep,
      onStateUnwritable: (error, dir) => told.push(`${(error as NodeJS.ErrnoException).code} ${dir}`),
    });
    expect(await pacer.acquire()).toBe(0);
    expect(await pacer.acquire()).toBe(0);
    // The budget still holds, in memory.
    expect(await pacer.acquire()).toBe(5000);
    expect(told).toEqual([`ENOTDIR ${path.join(parent, 'pacing')}`]);
  });

  it.skipIf(mountSupport() !== undefined)('on a read-only folder, still counts the calls other processes recorded there', async () => {
    const dir = tempDir();
    const time = fakeTime();
    const key = `${KEY}-readonly`;
    const options = { key, limit: 2, windowMs: 5000, marginMs: 0, stateDir: dir, now: time.now, sleep: time.sleep };
    await new Pacer(options).acquire();
    await new Pacer(options).acquire();
    makeReadOnly(dir);
    const told: unknown[] = [];
    // Another process: the file says the budget is spent, and it cannot write there.
    expect(await new Pacer({ ...options, key, onStateUnwritable: (error) => told.push((error as NodeJS.ErrnoException).code) }).acquire()).toBe(5000);
    expect(told).toEqual(['EROFS']);
  });

  it('estimates a bulk job by playing the window forward from the calls on record: what restore says before it starts (20.6)', async () => {
    const dir = tempDir();
    const time = fakeTime();
    const options = { key: KEY, limit: 3, windowMs: 10_000, marginMs: 0, stateDir: dir, now: time.now, sleep: time.sleep };
    const pacer = new Pacer(options);
    // Nothing on record: three go at once (10 ms each), the next three a window after the first.
    expect(pacer.estimateMs(3, 10)).toBe(30);
    expect(pacer.estimateMs(6, 10)).toBe(10_030);
    await pacer.acquire();
    time.advance(4000);
    // Two slots left; the third call waits for the recorded one to age out (6 s from now).
    expect(new Pacer(options).estimateMs(3, 0)).toBe(6000);
    // The estimate matches what acquiring takes.
    const waited: number[] = [];
    for (let i = 0; i < 3; i++) waited.push(await pacer.acquire());
    expect(waited.reduce((a, b) => a + b, 0)).toBe(6000);
    expect(new Pacer({ ...options, limit: 0 }).estimateMs(5, 20)).toBe(100);
  });
});
