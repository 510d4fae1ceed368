/**
 * Restore and apply at bulk speed against a real sandbox (issue 20): the sandbox says in
 * `getsettings` that its `add` takes several given keys, so the missing keys that share level,
 * note and duration are made a hundred a call instead of one a call. The calls are counted on
 * the way to the server, by a loopback proxy in front of it. (A server that does not say so gets
 * one key a call: test/unit/state/restore-batches.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { failingProxy } from '../helpers/failing-proxy.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;

let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
});

afterAll(async () => {
  await sb.stop();
});

/** A proxy that only counts the `add` calls (the 0th call is never reached, so none fails). */
async function withAddCounter<T>(run: (baseUrl: string) => Promise<T>): Promise<{ adds: number; result: T }> {
  const proxy = await failingProxy(sb.info.baseUrl, 'add', 0);
  try {
    const result = await run(proxy.baseUrl);
    return { adds: proxy.calls(), result };
  } finally {
    await proxy.close();
  }
}

describe('restore and apply against the sandbox make many keys a call', () => {
  it('puts back 254 deleted keys in 5 calls of add: 100, 100 and 50 alike, 3 of another level, and the banned one alone', async () => {
    await sb.ok(['licenses', 'create', '--amount', '250', '--expiry', '30', '--note', 'spring sale']);
    await sb.ok(['licenses', 'create', '--amount', '3', '--expiry', '1', '--level', '2']);
    await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30', '--mask', 'RC-BANNED-0001']);
    await sb.ok(['licenses', 'ban', 'RC-BANNED-0001', '--reason', 'chargeback']);
    const before = (await sb.ok(['export'])).stdout;
    const deleted = await sb.ok(['licenses', 'delete', '--all', '--yes']);
    const backup = /written to (\S+)/.exec(deleted.stderr)?.[1];
    expect(backup, deleted.stderr).toBeDefined();

    // Through the proxy the profile's server differs from the backup's: --force.
    const { adds, result } = await withAddCounter((baseUrl) => sb.kactl(['restore', backup!, '--yes', '--force', '--base-url', baseUrl]));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Put back 254 records');
    expect(adds).toBe(5);
    expect((await sb.ok(['export'])).stdout).toBe(before);
  }, SLOW);

  it('apply makes the fixed keys of a state file together as well', async () => {
    const file = path.join(tempDir('kactl-restore-calls-'), 'keys.yaml');
    fs.writeFileSync(file, `licenses:\n${['RC-A', 'RC-B', 'RC-C'].map((key) => `  - { key: ${key}, level: 1, expiry: 7d, note: fixed }\n`).join('')}`);
    const { adds, result } = await withAddCounter((baseUrl) => sb.kactl(['apply', '-f', file, '--base-url', baseUrl]));
    expect(result.code, result.stderr).toBe(0);
    expect(adds).toBe(1);
    const keys = JSON.parse((await sb.ok(['licenses', 'list', '--json'])).stdout) as { key: string; note: string; expires: string }[];
    expect(keys.filter((k) => k.key.startsWith('RC-') && k.note === 'fixed').map((k) => [k.key, k.expires])).toEqual([['RC-A', '604800'], ['RC-B', '604800'], ['RC-C', '604800']]);
  }, SLOW);
});
