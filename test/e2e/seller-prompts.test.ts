/**
 * Required values left out on a real terminal (a pseudo-terminal) are asked for: a value is
 * checked like its flag would be (a wrong number is refused with its unit, then asked again), a
 * password is read hidden. Without a terminal the same command stops with exit 2 naming the flag.
 */
import { spawn as spawnPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';

let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
});

afterAll(async () => {
  await sb.stop();
});

/** Runs kactl on a pseudo-terminal, typing each answer once its prompt text has appeared. */
function onTerminal(args: readonly string[], script: readonly (readonly [prompt: string, answer: string])[]): Promise<{ code: number; screen: string }> {
  return new Promise((resolve) => {
    const term = spawnPty(process.execPath, [KACTL_BIN, ...args], { cols: 160, rows: 40, env: cleanEnv(sb.configDir) });
    let screen = '';
    let step = 0;
    let seenAt = 0;
    term.onData((data) => {
      screen += data;
      const next = script[step];
      if (!next) return;
      const at = screen.indexOf(next[0], seenAt);
      if (at < 0) return;
      seenAt = at + next[0].length;
      step++;
      term.write(`${next[1]}\r`);
    });
    term.onExit(({ exitCode }) => resolve({ code: exitCode, screen }));
  });
}

describe('missing required values', () => {
  it('are asked for on a terminal, checked like flags, the password hidden', async () => {
    const { code, screen } = await onTerminal(
      ['users', 'create', '--username', 'prompted', '--sub', 'default'],
      [
        ['[days]', 'soon'],
        ['Give a number of days', '\u0015\u007f\u007f\u007f\u007f3'],
      ],
    );
    expect(code, screen).toBe(0);
    const user = (await sb.json<{ username: string }[]>(['users', 'list'])).find((u) => u.username === 'prompted');
    expect(user).toBeDefined();

    const activated = await onTerminal(['licenses', 'activate', (await sb.json<string[]>(['licenses', 'create', '--expiry', '1']))[0]!, '--username', 'fromkey'], [['Password of the new user', 'hidden-pw-1']]);
    expect(activated.code, activated.screen).toBe(0);
    expect(activated.screen).not.toContain('hidden-pw-1');
    expect((await sb.json<{ username: string }[]>(['users', 'list'])).map((u) => u.username)).toContain('fromkey');
  });

  it('stop with exit 2 naming the flag when there is no terminal', async () => {
    const result = await sb.kactl(['users', 'create', '--username', 'noterm', '--sub', 'default']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --expiry (there is no terminal to ask on)');
    expect((await sb.json<{ username: string }[]>(['users', 'list'])).map((u) => u.username)).not.toContain('noterm');
  });
});
