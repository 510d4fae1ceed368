/**
 * Durability under a SIGKILL: during a burst of writes, the sandbox process is killed outright and
 * loses no write it had acknowledged. The sandbox runs as its own process (the built one,
 * test/fixtures/sandbox-child.mjs), because only a process can be killed mid-write.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../src/server/start.js';
import { openStore } from '../../src/server/store/store.js';
import { ROOT, requireFreshBuild } from '../helpers/built.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHILD = path.join(ROOT, 'test/fixtures/sandbox-child.mjs');

describe('SIGKILL during a burst of writes', () => {
  beforeAll(() => {
    requireFreshBuild();
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
