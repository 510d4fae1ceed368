/**
 * `kactl client web-loader` as a child process for tests: started on a free loopback port,
 * ready once it says it is listening; `stop()` sends SIGINT and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { KACTL_BIN, cleanEnv } from './run-kactl.js';

export interface RunningWebLoader {
  readonly port: number;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited(): Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startWebLoader(configDir: string, args: readonly string[] = []): Promise<RunningWebLoader> {
  const port = await freePort();
  const child = spawn(process.execPath, [KACTL_BIN, 'client', 'web-loader', '--port', String(port), ...args], { env: cleanEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web-loader did not start: ${err}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('Web loader listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`web-loader exited early: ${err}`));
    });
  });
  return {
    port,
    child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exit,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exit;
    },
  };
}
