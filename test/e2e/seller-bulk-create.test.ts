/**
 * Bulk license creation through the built CLI against a real sandbox: 1,000 keys, all distinct
 * and all known to the server; and a server failure in the middle of a run (a loopback proxy in
 * front of the sandbox fails the third `add` call) reported honestly with exit 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';
import { failingProxy } from '../helpers/failing-proxy.js';
import { spawnKactlInPty } from '../helpers/pty.js';

let sb: E2ESandbox;

async function listedKeys(): Promise<string[]> {
  return (await sb.json<{ key: string }[]>(['licenses', 'list'])).map((row) => row.key);
}

beforeAll(async () => {
  sb = await startE2ESandbox();
});

afterAll(async () => {
  await sb.stop();
});

describe('licenses create in bulk', () => {
  it('makes 1,000 distinct keys that the server knows and verifies', async () => {
    const result = await sb.kactl(['licenses', 'create', '--amount', '1000', '--expiry', '7', '--level', '1', '--note', 'bulk'], { timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    const keys = result.stdout.trimEnd().split('\n');
    expect(keys).toHaveLength(1000);
    expect(new Set(keys).size).toBe(1000);
    expect(result.stderr).toContain('Created 1000 licenses.');
    expect(new Set(await listedKeys())).toEqual(new Set(keys));
    for (const key of [keys[0]!, keys[99]!, keys[100]!, keys[500]!, keys[999]!]) {
      const verify = await sb.kactl(['licenses', 'verify', key]);
      expect(verify.code, `${key}: ${verify.stderr}`).toBe(0);
    }
  });

  it('reports a server failure midway: the keys made, how many are missing, exit 1', async () => {
    const before = new Set(await listedKeys());
    const proxy = await failingProxy(sb.info.baseUrl, 'add', 3);
    try {
      const result = await sb.kactl(['licenses', 'create', '--amount', '450', '--expiry', '1', '--base-url', proxy.baseUrl], { timeoutMs: 60_000 });
      expect(result.code).toBe(1);
      const printed = result.stdout.trimEnd().split('\n');
      expect(printed).toHaveLength(200);
      expect(result.stderr).toContain('Created 200 of 450 licenses; 250 are missing.');
      expect(result.stderr).toContain('Run again with --amount 250');
      expect(proxy.calls()).toBe(3);
      const after = await listedKeys();
      const made = after.filter((key) => !before.has(key));
      expect(new Set(made)).toEqual(new Set(printed));
    } finally {
      await proxy.close();
    }
  });

  it('keeps the keys made in the --out file when a call fails', async () => {
    const proxy = await failingProxy(sb.info.baseUrl, 'add', 2);
    const file = path.join(tempDir(), 'keys.txt');
    try {
      const result = await sb.kactl(['licenses', 'create', '--amount', '150', '--expiry', '1', '--out', file, '--base-url', proxy.baseUrl]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`The 100 keys made are in ${file}`);
      const keys = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(keys).toHaveLength(100);
      const listed = new Set(await listedKeys());
      for (const key of keys) expect(listed.has(key)).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});

describe('the bar while paced (23.16)', () => {
  it('counts the pacing wait down beside the bar, at 80 columns', async () => {
    const paced = await startE2ESandbox();
    try {
      // Two calls a minute: the key list read first and the first `add` use them, the second `add` waits.
      await paced.ok(['profile', 'add', 'sandbox', '--seller-rate', '2']);
      const pty = spawnKactlInPty(['licenses', 'create', '--amount', '300', '--expiry', '1', '--out', path.join(tempDir(), 'keys.txt')], { configDir: paced.configDir, cols: 80 });
      try {
        const first = Number(/pacing (\d+)s\s*$/.exec(await pty.waitFor(/pacing \d+s\s*$/, 30_000))![1]);
        const later = Number(/pacing (\d+)s\s*$/.exec(await pty.waitFor(new RegExp(`pacing (?!${first}s)\\d+s\\s*$`), 10_000))![1]);
        expect(later).toBeLessThan(first);
        for (const line of pty.screen().split('\n')) expect([...line.trimEnd()].length, line).toBeLessThanOrEqual(80);
        expect(pty.screen()).toMatch(/Creating licenses \[█+░+\] 100\/300/);
      } finally {
        pty.kill();
      }
    } finally {
      await paced.stop();
    }
  }, 60_000);
});
