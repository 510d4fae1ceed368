// Starts `kactl sandbox start` (the real CLI, in-memory store, no rate limit unless asked) in its
// own process under the benchmark's node, and reads its JSON ready line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const KACTL = path.join(ROOT, 'bin', 'kactl.js');

export function startSandboxProcess(node, env, extraArgs = [], { rateLimit = false } = {}) {
  const child = spawn(node, [KACTL, 'sandbox', 'start', '--port', '0', '--data', ':memory:', '--json', ...(rateLimit ? [] : ['--no-rate-limit']), ...extraArgs], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A benchmark that fails half-way must not leave its sandbox running.
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before it was ready`)));
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      child.removeAllListeners('exit');
      child.stdout.resume();
      const info = JSON.parse(buffered.slice(0, newline));
      resolve({
        info,
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGINT');
          }),
      });
    });
  });
}

/** GET a URL with node:http and parse the JSON answer (set-up requests, not measured). */
export async function getJson(url) {
  const res = await fetch(url);
  return res.json();
}
