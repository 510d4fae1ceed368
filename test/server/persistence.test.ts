/**
 * Durability: a restart on the same data file keeps the app and the signing key; a SIGKILL
 * during a burst of writes loses no write the server had acknowledged.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, SandboxConfigError, type SandboxInfo } from '../../src/server/start.js';
import { openStore } from '../../src/server/store/store.js';
import { tempDir } from '../helpers/temp-dir.js';
import { toResult, verifyEd25519 } from '../helpers/sandbox.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = path.join(ROOT, 'test/fixtures/sandbox-child.mjs');
const BUILT = path.join(ROOT, 'dist/server/start.js');

/** Sources under src/server whose built .js is missing or older (tsc --incremental only rewrites what changed). */
function staleSources(dir: string): string[] {
  const stale: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) stale.push(...staleSources(full));
    else if (entry.name.endsWith('.ts')) {
      const built = path.join(ROOT, 'dist', path.relative(path.join(ROOT, 'src'), full)).replace(/\.ts$/, '.js');
      if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < fs.statSync(full).mtimeMs) stale.push(path.relative(ROOT, full));
    }
  }
  return stale;
}

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

describe('SIGKILL during a burst of writes', () => {
  beforeAll(() => {
    if (!fs.existsSync(BUILT)) throw new Error('dist/server/start.js is missing: run `npm run build` first.');
    const stale = staleSources(path.join(ROOT, 'src/server'));
    if (stale.length > 0) throw new Error(`dist/ is older than ${stale.slice(0, 3).join(', ')}: run \`npm run build\` first.`);
  });

  it('loses no acknowledged init', async () => {
    const data = path.join(tempDir(), 'sandbox.db');
    const child = spawn(process.execPath, [CHILD, data], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const info = await new Promise<SandboxInfo>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as SandboxInfo));
      child.once('exit', () => reject(new Error(`sandbox child exited early: ${Buffer.concat(stderr).toString()}`)));
    });

    const url = `${info.baseUrl}/api/1.3/?type=init&name=${info.app.name}&ownerid=${info.app.ownerid}`;
    const acknowledged: string[] = [];
    let killed = false;
    const KILL_AFTER = 200;
    const worker = async (): Promise<void> => {
      for (;;) {
        let body: { success?: boolean; sessionid?: string };
        try {
          body = (await (await fetch(url)).json()) as typeof body;
        } catch {
          return; // the process is gone
        }
        if (body.success === true && body.sessionid) acknowledged.push(body.sessionid);
        if (acknowledged.length >= KILL_AFTER && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(await exited).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const store = openStore(data);
    try {
      const stored = new Set(store.all<{ id: string }>('SELECT id FROM sessions').map((row) => row.id));
      const lost = acknowledged.filter((id) => !stored.has(id));
      expect(lost).toEqual([]);
    } finally {
      store.close();
    }
  });
});
