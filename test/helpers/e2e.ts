/**
 * End-to-end harness: a real sandbox started the way users start it (`kactl sandbox start
 * --json`, port 0, in-memory store) with a temporary config folder, and the real kactl binary
 * run against it. The sandbox saves and activates the "sandbox" profile in that folder, so
 * `kactl(...)` needs no further setup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { cleanUpAfterEachFile } from './cleanup.js';
import { KACTL_BIN, cleanEnv, runKactl, type SpawnResult } from './run-kactl.js';
import { tempDir } from './temp-dir.js';

export interface SandboxInfo {
  baseUrl: string;
  app: { name: string; ownerid: string; secret: string; version: string };
  sellerKey: string;
  publicKey: string;
  adminToken: string;
}

export interface KactlOptions {
  input?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  cwd?: string;
}

export interface E2ESandbox {
  info: SandboxInfo;
  configDir: string;
  /** Run the built CLI against this sandbox (no terminal, NO_COLOR). */
  kactl(args: readonly string[], options?: KactlOptions): Promise<SpawnResult>;
  /**
   * Run kactl's main() in this process against this sandbox, with the same environment as
   * `kactl()` (test/helpers/run-main.ts): the same code as the built CLI runs, without a process
   * start, for a test that runs many commands and spawns the binary for a share of them.
   */
  inProcess(args: readonly string[], options?: Pick<KactlOptions, 'env' | 'input'>): Promise<SpawnResult>;
  /** `kactl …` that must exit 0 (the failure message shows the command and its stderr). */
  ok(args: readonly string[], options?: KactlOptions): Promise<SpawnResult>;
  /** `kactl …` that must exit 0; returns stdout parsed as JSON. */
  json<T = unknown>(args: readonly string[], options?: KactlOptions): Promise<T>;
  /** The sandbox's outbox (email it would have sent). */
  outbox(): Promise<{ to: string; subject: string; text: string; link?: string | null; kind?: string }[]>;
  /** SIGTERM the sandbox and wait for it to exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  process: ChildProcess;
}

export interface StartOptions {
  /** Extra `kactl sandbox start` arguments, e.g. ['--failure-status', '200']. */
  args?: readonly string[];
  /** Keep the server's rate limits (off by default so tests aren't paced). */
  rateLimit?: boolean;
  /** Extra environment for the sandbox process (what a `--seed` file reads with `!env`). */
  env?: Record<string, string>;
}

const running: ChildProcess[] = [];

function killAll(): void {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

// startE2ESandbox() is called from inside a hook, where vitest would ignore a hook added then:
// the kill is registered once, with the cleanups run after every file. The exit handler covers a
// worker that ends without running hooks, so no sandbox outlives its test file.
cleanUpAfterEachFile(killAll);
process.once('exit', killAll);

export async function startE2ESandbox(options: StartOptions = {}): Promise<E2ESandbox> {
  const configDir = tempDir('kactl-e2e-');
  const args = ['sandbox', 'start', '--port', '0', '--data', ':memory:', '--json', ...(options.rateLimit ? [] : ['--no-rate-limit']), ...(options.args ?? [])];
  const child = spawn(process.execPath, [KACTL_BIN, ...args], { env: cleanEnv(configDir, options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`sandbox did not start within 20 s: ${stderr.join('')}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as SandboxInfo);
      } catch (error) {
        reject(new Error(`sandbox ready line is not JSON: ${line}`, { cause: error }));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${stderr.join('')}`));
    });
  });

  const kactl = (cmd: readonly string[], opts: KactlOptions = {}): Promise<SpawnResult> =>
    runKactl(cmd, { configDir, ...(opts.env ? { env: opts.env } : {}), ...(opts.input !== undefined ? { input: opts.input } : {}), ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.cwd ? { cwd: opts.cwd } : {}) });

  return {
    info,
    configDir,
    process: child,
    kactl,
    async inProcess(cmd, opts = {}) {
      const { runMain } = await import('./run-main.js');
      const result = await runMain(cmd, { env: cleanEnv(configDir, opts.env), ...(opts.input !== undefined ? { stdin: opts.input } : {}) });
      return { ...result, signal: null };
    },
    async ok(cmd: readonly string[], opts: KactlOptions = {}): Promise<SpawnResult> {
      const result = await kactl(cmd, opts);
      expect(result.code, `kactl ${cmd.join(' ')}\n${result.stderr}`).toBe(0);
      return result;
    },
    async json<T>(cmd: readonly string[], opts: KactlOptions = {}): Promise<T> {
      const result = await kactl([...cmd, '--json'], opts);
      if (result.code !== 0) throw new Error(`kactl ${cmd.join(' ')} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    async outbox() {
      const res = await fetch(`${info.baseUrl}/sandbox/outbox`, { headers: { authorization: `Bearer ${info.adminToken}` } });
      const body: unknown = await res.json();
      return (Array.isArray(body) ? body : (body as { messages: unknown[] }).messages) as Awaited<ReturnType<E2ESandbox['outbox']>>;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
        child.once('exit', (code, signal) => resolve({ code, signal }));
        child.kill('SIGTERM');
      });
    },
  };
}
