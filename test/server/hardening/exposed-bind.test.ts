/**
 * Issue 9 item 2: `kactl sandbox start --host 0.0.0.0`, as users run it: a one-line warning on
 * stderr naming who can reach it (issue 32), the real bind address in the ready line, no
 * wildcard CORS header unless `--cors '*'` asks for it, and the admin token and dashboard
 * sign-in still required.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { KACTL_BIN, cleanEnv } from '../../helpers/run-kactl.js';
import { tempDir } from '../../helpers/temp-dir.js';

async function startExposed(extra: string[]): Promise<{ info: Record<string, unknown>; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [KACTL_BIN, 'sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--data', ':memory:', '--json', '--no-profile', ...extra], {
    env: cleanEnv(tempDir()),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then(() => reject(new Error(`sandbox exited early: ${stderr}`)));
  });
  return {
    info: JSON.parse(line) as Record<string, unknown>,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

describe('sandbox start --host 0.0.0.0', () => {
  it('warns on stderr, names the real bind address, and sends no wildcard CORS header', async () => {
    const sb = await startExposed([]);
    try {
      // One line naming who can now reach it.
      expect(sb.stderr()).toMatch(/^warning: The sandbox listens on http:\/\/0\.0\.0\.0:\d+: every machine that can reach this one, on any of its networks, can use its APIs and pages \(the admin routes and the dashboard still need the admin token\)\. Use --host 127\.0\.0\.1 unless you mean that\.$/m);
      const port = /:(\d+)$/.exec(String(sb.info.baseUrl))?.[1];
      expect(sb.info.listen).toBe(`http://0.0.0.0:${port}`);
      const res = await fetch(`${String(sb.info.baseUrl)}/api/seller/?sellerkey=x&type=info`);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      // Every protection stays on: the admin routes want the token, the dashboard its sign-in.
      expect((await fetch(`${String(sb.info.baseUrl)}/sandbox/outbox`)).status).toBe(401);
      expect((await fetch(`${String(sb.info.baseUrl)}/sandbox/ui`, { redirect: 'manual' })).status).toBe(401);
    } finally {
      await sb.stop();
    }
  });

  it("sends the wildcard CORS header with --cors '*'", async () => {
    const sb = await startExposed(['--cors', '*']);
    try {
      const res = await fetch(`${String(sb.info.baseUrl)}/api/seller/?sellerkey=x&type=info`, { headers: { origin: 'https://app.example.test' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await sb.stop();
    }
  });
});
