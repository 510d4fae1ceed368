/**
 * Spawn the real, built CLI (bin/kactl.js → dist/) with a clean environment: no terminal,
 * NO_COLOR, the config folder given. `npm test` builds first (pretest); a test file that imports
 * this (directly or through e2e.ts, pty.ts, web-loader.ts) fails at once when dist/ is not a
 * build of the tree's sources, saying to run `npm run build` (test/helpers/built.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, requireFreshBuild } from './built.js';

requireFreshBuild();

export const KACTL_BIN = path.join(ROOT, 'bin/kactl.js');

export interface SpawnOptions {
  /** KACTL_CONFIG_DIR for this run (required: tests never touch the user's config). */
  configDir: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Working folder (default: the test's). */
  cwd?: string;
}

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Only what a clean machine would have, plus the config folder: the developer's env stays out. */
export function cleanEnv(configDir: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: configDir,
    NO_COLOR: '1',
    KACTL_CONFIG_DIR: configDir,
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

export function runKactl(args: readonly string[], options: SpawnOptions): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KACTL_BIN, ...args], {
      env: cleanEnv(options.configDir, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(options.input ?? '');
  });
}
