/** A reader that closes the pipe early (`kactl … | head -1`) ends kactl quietly, without a stack trace. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';

describe('a closed stdout', () => {
  it('stops a bulk license job and exits 0 when the reader goes away', async () => {
    const sb = await startE2ESandbox();
    const child = spawn(process.execPath, [KACTL_BIN, 'licenses', 'create', '--amount', '500', '--expiry', '1'], {
      env: cleanEnv(sb.configDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Read the first chunk of keys, then hang up like `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
  });
});
