/**
 * The built kactl (or a shell) in a real pseudo-terminal (node-pty), for the few walkthroughs
 * that only a terminal shows: the test reads the screen as text, waits for what it expects, and
 * types.
 */
import { spawn as spawnPty } from 'node-pty';
import { KACTL_BIN, cleanEnv } from './run-kactl.js';

export interface PtyRun {
  /** Everything printed so far, colour and cursor codes removed. */
  screen(): string;
  /** Resolves with the screen once `pattern` shows up; rejects after `timeoutMs` with what was there. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Types `text` (use `\r` for Enter). */
  type(text: string): void;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number>;
  kill(): void;
}

// eslint-disable-next-line no-control-regex -- terminal control sequences are what it removes
const CONTROL_SEQUENCES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\u001b[()][A-Z0-9]/g;

export function plainText(raw: string): string {
  return raw.replace(CONTROL_SEQUENCES, '').replace(/\r(?!\n)/g, '\n');
}

export function spawnKactlInPty(args: readonly string[], options: { configDir: string; env?: Record<string, string>; cols?: number; rows?: number }): PtyRun {
  return spawnInPty(process.execPath, [KACTL_BIN, ...args], options);
}

/** Any program (a shell) in a pseudo-terminal, with kactl's clean environment. */
export function spawnInPty(
  program: string,
  args: readonly string[],
  options: { configDir: string; env?: Record<string, string>; cols?: number; rows?: number; cwd?: string },
): PtyRun {
  const child = spawnPty(program, [...args], {
    name: 'xterm-256color',
    cols: options.cols ?? 100,
    rows: options.rows ?? 60,
    env: cleanEnv(options.configDir, { TERM: 'xterm-256color', ...options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let raw = '';
  const listeners = new Set<() => void>();
  child.onData((data) => {
    raw += data;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    screen: () => plainText(raw),
    waitFor(pattern, timeoutMs = 15_000) {
      const matches = () => (typeof pattern === 'string' ? plainText(raw).includes(pattern) : pattern.test(plainText(raw)));
      return new Promise((resolve, reject) => {
        if (matches()) return resolve(plainText(raw));
        const done = (): void => {
          if (!matches()) return;
          cleanup();
          resolve(plainText(raw));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${plainText(raw)}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(done);
        };
        listeners.add(done);
      });
    },
    type: (text) => child.write(text),
    exited,
    kill: () => child.kill(),
  };
}
