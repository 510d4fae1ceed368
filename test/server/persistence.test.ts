/**
 * Durability: a restart on the same data file keeps the app and the signing key. (A SIGKILL
 * during a burst of writes is persistence-sigkill.test.ts: it needs the built sandbox.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox, SandboxConfigError } from '../../src/server/start.js';
import { tempDir } from '../helpers/temp-dir.js';
import { toResult, verifyEd25519 } from '../helpers/sandbox.js';

describe('restart', () => {
  it('keeps the app, the seller key, the public key and the admin token', async () => {
    const data = path.join(tempDir(), 'nested', 'deeper', 'sandbox.db');
    const first = await startSandbox({ data, appName: 'keepme', ownerid: 'AbCdEf1234', sellerKey: 'k'.repeat(32) });
    const init1 = await fetch(`${first.baseUrl}/api/1.3/?type=init&name=keepme&ownerid=AbCdEf1234`);
    expect(init1.status).toBe(200);
    await first.close();
    expect(fs.statSync(data).mode & 0o777).toBe(0o600);

    const second = await startSandbox({ data });
    try {
      const { baseUrl: _a, ...same1 } = first.info;
      const { baseUrl: _b, ...same2 } = second.info;
      expect(same2).toEqual(same1);
      expect(second.info.app).toMatchObject({ name: 'keepme', ownerid: 'AbCdEf1234', version: '1.0' });
      // An answer of the second run verifies with the key published by the first.
      const res = await toResult(await fetch(`${second.baseUrl}/api/1.3/?type=init&name=keepme&ownerid=AbCdEf1234`));
      expect(verifyEd25519(first.info.publicKey, res.headers.get('x-signature-timestamp')!, res.bytes, res.headers.get('x-signature-ed25519')!)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('refuses options that contradict the stored app, and malformed ones', async () => {
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await startSandbox({ data, appName: 'one' });
    await first.close();
    await expect(startSandbox({ data, appName: 'two' })).rejects.toThrow(SandboxConfigError);
    await expect(startSandbox({ data, ownerid: 'ZZZZZZZZZZ' })).rejects.toThrow(/already holds application "one" with another ownerid/);
    const clash = await startSandbox({ data, sellerKey: 'z'.repeat(32) }).catch((caught: unknown) => caught);
    expect(clash).toBeInstanceOf(SandboxConfigError);
    expect((clash as SandboxConfigError).message).toMatch(/another sellerKey \(.{4}…\); drop sellerKey or use another data file\.$/);
    // The CLI names its flags instead (src/commands/sandbox/start.ts).
    const flag = (option: string) => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    expect((clash as SandboxConfigError).messageFor(flag)).toMatch(/another seller-key \(.{4}…\); drop --seller-key or use another --data file\.$/);
    await expect(startSandbox({ data: ':memory:', ownerid: 'short' })).rejects.toThrow(/exactly 10 letters or digits/);
    await expect(startSandbox({ data: ':memory:', sellerKey: 'x'.repeat(31) })).rejects.toThrow(/exactly 32 letters or digits/);
    // Matching options are fine.
    const again = await startSandbox({ data, appName: 'one', ownerid: first.info.app.ownerid, sellerKey: first.info.sellerKey });
    await again.close();
  });

  it('closes cleanly: the store is closed and the port released', async () => {
    const data = path.join(tempDir(), 'sandbox.db');
    const sb = await startSandbox({ data });
    await sb.close();
    await sb.close();
    expect(sb.store.db.open).toBe(false);
    await expect(fetch(`${sb.baseUrl}/api/1.3/`)).rejects.toThrow();
    expect(fs.existsSync(`${data}-wal`)).toBe(false);
  });
});
