/**
 * Two (here: twelve) kactl processes writing the config at once lose nothing. (`--force`: the
 * profiles point nowhere, and saving them unchecked is what is under test.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('config file under concurrent writers', () => {
  it('keeps every profile when twelve processes add one each at the same time', async () => {
    const configDir = tempDir();
    const names = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const results = await Promise.all(names.map((name, i) => runKactl(['profile', 'add', name, '--force', '--base-url', `http://127.0.0.1:${1000 + i}`], { configDir })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const config = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl: string }> };
    expect(Object.keys(config.profiles).sort()).toEqual([...names].sort());
    names.forEach((name, i) => expect(config.profiles[name]?.baseUrl).toBe(`http://127.0.0.1:${1000 + i}`));
    expect(fs.statSync(path.join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(configDir).filter((f) => f.includes('lock'))).toEqual([]);
  });

  it('keeps every field when processes update the same profile at the same time', async () => {
    const configDir = tempDir();
    expect((await runKactl(['profile', 'add', 'shared', '--force', '--base-url', 'http://127.0.0.1:1'], { configDir })).code).toBe(0);
    const updates: string[][] = [
      ['--app-name', 'App'],
      ['--ownerid', 'AbCdEf1234'],
      ['--app-version', '2.0'],
      ['--hwid', 'HWID-0123456789abcdef'],
      ['--seller-rate', '30'],
      ['--method', 'post'],
    ];
    const results = await Promise.all(updates.map((flags) => runKactl(['profile', 'add', 'shared', '--force', ...flags], { configDir })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const config = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, unknown> };
    expect(config.profiles.shared).toEqual({
      baseUrl: 'http://127.0.0.1:1',
      appName: 'App',
      ownerid: 'AbCdEf1234',
      appVersion: '2.0',
      hwid: 'HWID-0123456789abcdef',
      sellerRate: 30,
      method: 'post',
    });
  });
});
