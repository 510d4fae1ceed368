/**
 * The README works as pasted. Every ```sh block of README.md runs, top to bottom, in one fresh
 * bash (`set -euo pipefail`) with an empty config and data folder, `kactl` on the PATH (a temp
 * bin folder holding a `kactl` link to bin/kactl.js), in an empty working folder, against the
 * sandbox the README itself starts (`kactl sandbox start --detach`), beside a sandbox of the
 * reader's own that no block may stop. Afterwards the test stops
 * every sandbox of that data folder, and kills any left over.
 *
 * The convention, for whoever edits the README:
 * - ```sh blocks are commands a reader pastes: they must run offline, as written, in order,
 *   with no placeholders (capture values: `KEY=$(kactl licenses create --amount 1 --expiry 30)`).
 * - ```text blocks are synopses and anything that cannot run here (a hosted server's profile,
 *   placeholders like U or K): they are not run.
 * - ```sh no-test marks a shell block the test skips: the install commands (CI has already run
 *   `npm ci`; the `npm link` line is run below, as written, in a temporary HOME) and the development commands
 *   (`npm test` would run this test again).
 *
 * `KACTL_README=/path/to/README.md` runs another copy (drafts of the README).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runnableBlocks, shellScript } from '../helpers/markdown-blocks.js';
import { killRegisteredSandboxes } from '../helpers/leftover-sandboxes.js';
import { KACTL_BIN } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const README = process.env.KACTL_README ?? path.resolve(path.dirname(KACTL_BIN), '..', 'README.md');

const dataDirs: string[] = [];

afterAll(() => killRegisteredSandboxes(dataDirs));

function run(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string>; input?: string; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

describe(`the README (${path.basename(README)}) as pasted`, () => {
  it('finds the blocks it must run, and the convention holds (no placeholders, a detached sandbox)', () => {
    const blocks = runnableBlocks(fs.readFileSync(README, 'utf8'));
    expect(blocks.length).toBeGreaterThan(0);
    const all = blocks.map((block) => block.code).join('\n');
    expect(all).toMatch(/kactl sandbox start --detach/);
    // A bare `&` would race the next command (the profile is saved only once the server is up).
    expect(all).not.toMatch(/kactl sandbox start[^\n#]*&\s*(#.*)?$/m);
  });

  it('runs every ```sh block top to bottom in one fresh bash, against the sandbox it starts', async () => {
    const blocks = runnableBlocks(fs.readFileSync(README, 'utf8'));
    const root = tempDir('kactl-readme-');
    const [bin, work, config, data] = ['bin', 'work', 'config', 'data'].map((name) => path.join(root, name));
    for (const dir of [bin!, work!, config!]) fs.mkdirSync(dir);
    // Private, as kactl makes it: the README's `kactl doctor` fails a data folder others can read.
    fs.mkdirSync(data!, { mode: 0o700 });
    fs.symlinkSync(KACTL_BIN, path.join(bin!, 'kactl'));
    dataDirs.push(data!);
    const env = {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: root,
      NO_COLOR: '1',
      KACTL_CONFIG_DIR: config!,
      KACTL_DATA_DIR: data!,
    };
    // A sandbox the README did not start: no block may stop it (a reader's own keeps running).
    const bystander = await run('bash', ['-c', 'kactl sandbox start --detach --no-profile --port 0 --data bystander.db'], { cwd: work!, env, timeoutMs: 60_000 });
    expect(bystander.code, bystander.stderr).toBe(0);
    const result = await run('bash', ['-c', shellScript(blocks, 'README.md')], { cwd: work!, env, timeoutMs: 240_000 });
    const after = await run('bash', ['-c', 'kactl sandbox status --json'], { cwd: work!, env, timeoutMs: 30_000 });
    const stopped = await run('bash', ['-c', 'kactl sandbox stop --all'], { cwd: work!, env, timeoutMs: 30_000 });
    expect(result.code, `README block failed (the last "::: README.md block" line names it):\n${result.stderr}`).toBe(0);
    expect(result.stderr).toContain('::: README.md: every block ran');
    // "Testing your program": the wrong password is exit 1, the forged login answer exit 5.
    expect(result.stdout).toContain('exit status 1');
    expect(result.stdout).toContain('exit status 5');
    // The audit of the Python program: the fake server and the doctored answer got in.
    expect(result.stdout).toContain('Failed 2 of 5 graded scenarios. Worst: accepted an answer signed by another');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(fs.readdirSync(path.join(data!, 'sandboxes')).filter((name) => name.endsWith('.json'))).toEqual([]);
    expect(JSON.parse(after.stdout), 'a block stopped a sandbox the README did not start').toEqual([expect.objectContaining({ data: path.join(work!, 'bystander.db'), state: 'ready' })]);
  }, 270_000);
});

describe('the install step leaves `kactl` runnable', () => {
  it("the README's `npm link` without write access to npm's prefix, as written, puts a working `kactl` in ~/.local/bin", async () => {
    const readme = fs.readFileSync(README, 'utf8');
    // The line's comment gives the command to run instead (npm 11 refuses `npm link --prefix DIR`).
    const line = readme.split('\n').find((text) => text.startsWith('npm link ') && text.includes("no write access to npm's prefix"));
    const command = /no write access to npm's prefix\? (?:run: )?`?(.+?)`?,? (?:and|\(then) put ~\/\.local\/bin on PATH/.exec(line ?? '')?.[1];
    expect(command, `no alternative command in the README's npm link line: ${line}`).toBeDefined();
    const home = tempDir('kactl-npm-home-');
    const repo = path.resolve(path.dirname(KACTL_BIN), '..');
    // Offline: linking needs nothing from the registry. The build is there already (npm link runs no build script).
    const env = { PATH: process.env.PATH ?? '', HOME: home, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    const linked = await run('bash', ['-c', command!], { cwd: repo, env, timeoutMs: 120_000 });
    expect(linked.code, `${command} failed:\n${linked.stderr}`).toBe(0);
    const { stdout } = await promisify(execFile)(path.join(home, '.local', 'bin', 'kactl'), ['--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  }, 150_000);
});
