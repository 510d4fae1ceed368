/** `kactl sandbox start`: the ready line contract, the saved profile, and a clean stop. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv, runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Started {
  line: string;
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function start(configDir: string, args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [KACTL_BIN, 'sandbox', 'start', ...args], { env: cleanEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      stdout += `${line}\n`;
      resolve({
        line,
        stop: async (signal) => {
          child.kill(signal);
          const code = await exited;
          return { code, stdout, stderr };
        },
      });
    });
    // Without --json nothing comes on stdout: the ready state shows on stderr.
    child.stderr.on('data', () => {
      if (stderr.includes('Press Ctrl-C to stop')) {
        resolve({
          line: '',
          stop: async (signal) => {
            child.kill(signal);
            const code = await exited;
            return { code, stdout, stderr };
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`sandbox exited early (${code}): ${stderr}`)));
  });
}

describe('kactl sandbox start', () => {
  it('prints exactly one JSON ready line with the contract fields, then stops cleanly on SIGINT with exit 0', async () => {
    const configDir = tempDir();
    const sandbox = await start(configDir, ['--port', '0', '--data', ':memory:', '--json']);
    const info = JSON.parse(sandbox.line) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(['adminToken', 'app', 'baseUrl', 'publicKey', 'sellerKey']);
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const app = info.app as Record<string, string>;
    expect(Object.keys(app).sort()).toEqual(['name', 'ownerid', 'secret', 'version']);
    expect(app.ownerid).toHaveLength(10);
    expect(app.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(app.version).toBe('1.0');
    expect(info.sellerKey).toHaveLength(32);
    expect(info.publicKey).toMatch(/^[0-9a-f]{64}$/);

    const stopped = await sandbox.stop('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('saves an active "sandbox" profile that other commands use with no setup', async () => {
    const sb = await startE2ESandbox();
    const config = JSON.parse(fs.readFileSync(path.join(sb.configDir, 'config.json'), 'utf8')) as { active: string; profiles: Record<string, Record<string, unknown>> };
    expect(config.active).toBe('sandbox');
    expect(config.profiles.sandbox).toMatchObject({ baseUrl: sb.info.baseUrl, appName: sb.info.app.name, ownerid: sb.info.app.ownerid, publicKey: sb.info.publicKey, sellerKey: sb.info.sellerKey });
    const init = await sb.json<{ success: boolean; sessionid: string }>(['client', 'call', 'init']);
    expect(init.success).toBe(true);
    expect((await sb.stop()).code).toBe(0);
  });

  it('keeps its data and keys in a file store across restarts, and refuses a conflicting ownerid', async () => {
    const configDir = tempDir();
    const data = path.join(tempDir(), 'nested', 'sandbox.db');
    const first = await start(configDir, ['--data', data, '--json', '--ownerid', 'AbCdEf1234']);
    const before = JSON.parse(first.line) as { publicKey: string; sellerKey: string; app: { ownerid: string } };
    expect(before.app.ownerid).toBe('AbCdEf1234');
    expect((await first.stop('SIGTERM')).code).toBe(0);

    const second = await start(configDir, ['--data', data, '--json']);
    const after = JSON.parse(second.line) as typeof before;
    expect(after.publicKey).toBe(before.publicKey);
    expect(after.sellerKey).toBe(before.sellerKey);
    expect((await second.stop('SIGINT')).code).toBe(0);

    const conflict = await runKactl(['sandbox', 'start', '--data', data, '--ownerid', 'ZzZzZzZzZz', '--json'], { configDir });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stdout).toBe('');
    expect(conflict.stderr).toMatch(/ownerid/i);
    expect(conflict.stderr).not.toMatch(/\n\s+at /);
  });

  it('without --json prints nothing on stdout and the details, secrets masked, on stderr', async () => {
    const configDir = tempDir();
    const sandbox = await start(configDir, ['--port', '0', '--data', ':memory:']);
    const stopped = await sandbox.stop('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr).toContain('Sandbox listening on http://127.0.0.1:');
    const profile = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.sandbox as { sellerKey: string; secret: string };
    expect(stopped.stderr).not.toContain(profile.sellerKey);
    expect(stopped.stderr).not.toContain(profile.secret);
  });

  it('rejects a port out of range with exit 2', async () => {
    const result = await runKactl(['sandbox', 'start', '--port', '70000'], { configDir: tempDir() });
    expect(result.code).toBe(2);
  });

  it('rejects a --panel-url that is not an http(s) URL with exit 2, before serving', async () => {
    for (const [value, why] of [['panel.example.test', 'is not a URL'], ['ftp://panel.example.test', 'is not an http(s) URL'], ['javascript:alert(1)', 'is not an http(s) URL']]) {
      const result = await runKactl(['sandbox', 'start', '--data', ':memory:', '--json', '--panel-url', value!], { configDir: tempDir() });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`"${value}" ${why}`);
      expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    }
  });
});

describe('the port of a restarted sandbox', () => {
  const portOf = (line: string): number => Number(new URL((JSON.parse(line) as { baseUrl: string }).baseUrl).port);

  it('is the port its store used last time, said on stderr; --port 0 takes a random one', async () => {
    const configDir = tempDir();
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await start(configDir, ['--data', data, '--json']);
    const port = portOf(first.line);
    const firstStop = await first.stop('SIGTERM');
    expect(firstStop.code).toBe(0);
    // A new store has no last port: nothing to say.
    expect(firstStop.stderr).not.toContain('again');

    const second = await start(configDir, ['--data', data, '--json']);
    expect(portOf(second.line)).toBe(port);
    const secondStop = await second.stop('SIGINT');
    expect(secondStop.stderr).toContain(`Using port ${port} again, as last time for this store (--port 0 for a random one).`);
    // stdout is still exactly the ready line.
    expect(secondStop.stdout.trim().split('\n')).toHaveLength(1);

    const random = await start(configDir, ['--data', data, '--port', '0', '--json']);
    const randomPort = portOf(random.line);
    const randomStop = await random.stop('SIGTERM');
    expect(randomStop.stderr).not.toContain('again');
    expect(randomPort).not.toBe(port);

    // The last port is now the random one: a start without --port takes that.
    const third = await start(configDir, ['--data', data]);
    const thirdStop = await third.stop('SIGTERM');
    expect(thirdStop.stderr).toContain(`Sandbox listening on http://127.0.0.1:${randomPort}`);
    expect(thirdStop.stderr).toContain(`Using port ${randomPort} again`);
  });

  it('falls back to a free port, and says so, when the last one is in use', async () => {
    const configDir = tempDir();
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await start(configDir, ['--data', data, '--json']);
    const port = portOf(first.line);
    expect((await first.stop('SIGTERM')).code).toBe(0);

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const second = await start(configDir, ['--data', data, '--json']);
      const other = portOf(second.line);
      expect(other).not.toBe(port);
      const stopped = await second.stop('SIGTERM');
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toContain(`Port ${port}, the one this store used last time, is in use; listening on ${other} instead (--port N to choose one).`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('is kept by a --detach sandbox too, said by the command that started it', async () => {
    const configDir = tempDir();
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await runKactl(['sandbox', 'start', '--detach', '--data', data, '--json'], { configDir, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    const port = portOf(first.stdout.trim());
    expect((await runKactl(['sandbox', 'stop'], { configDir, timeoutMs: 60_000 })).code).toBe(0);

    const second = await runKactl(['sandbox', 'start', '--detach', '--data', data], { configDir, timeoutMs: 60_000 });
    try {
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(`Sandbox listening on http://127.0.0.1:${port} in the background`);
      expect(second.stderr).toContain(`Using port ${port} again, as last time for this store (--port 0 for a random one).`);
    } finally {
      expect((await runKactl(['sandbox', 'stop', '--all'], { configDir, timeoutMs: 60_000 })).code).toBe(0);
    }
  });

  it('of an in-memory store is a free one each time, with nothing said', async () => {
    const configDir = tempDir();
    const sandbox = await start(configDir, ['--data', ':memory:', '--json']);
    const stopped = await sandbox.stop('SIGTERM');
    expect(stopped.stderr).not.toContain('again');
    expect(stopped.stderr).not.toContain('in use');
  });
});
