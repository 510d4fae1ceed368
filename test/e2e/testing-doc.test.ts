/**
 * docs/testing-your-program.md works as pasted: its ```sh blocks run top to bottom in one fresh
 * bash with an empty config and data folder and `kactl` on the PATH, against the sandboxes the
 * page itself starts (plain, then --tls), as the README's blocks do (test/e2e/readme.test.ts
 * says the convention; Windows and macOS blocks are marked `no-test`), beside a sandbox of the
 * reader's own that no block may stop. The page has a section
 * per library `kactl sandbox connect` names, and the Windows walk-through for the C++ SDK.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runnableBlocks, shellScript } from '../helpers/markdown-blocks.js';
import { killRegisteredSandboxes } from '../helpers/leftover-sandboxes.js';
import { KACTL_BIN } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const PAGE = path.resolve(path.dirname(KACTL_BIN), '..', 'docs/testing-your-program.md');
const text = fs.readFileSync(PAGE, 'utf8');
const dataDirs: string[] = [];

afterAll(() => killRegisteredSandboxes(dataDirs));

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Two whole audits of a Python program run among the blocks (kactl sandbox audit).
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('docs/testing-your-program.md', () => {
  it('has a section per library, the Windows C++ walk-through (not run here), and blocks to run', () => {
    for (const heading of ['## Python', '## C#', '## C++', '## PHP', '## Go', '## React', '## Java', "## kactl's own client", '### Walk-through on Windows']) {
      expect(text, heading).toContain(heading);
    }
    // The C++ route: a non-loopback address on port 443, no hosts-file line (the library refuses one).
    expect(text).toMatch(/```powershell no-test\n[\s\S]*kactl sandbox start --tls --host 192\.168\.1\.20 --port 443 --detach[\s\S]*kactl sandbox connect cpp[\s\S]*certutil -addstore -f Root/);
    expect(text).not.toMatch(/Add-Content[^\n]*hosts|127\.0\.0\.1 kactl\.test/);
    const all = runnableBlocks(text).map((block) => block.code).join('\n');
    expect(all).toContain('kactl sandbox start --detach');
    expect(all).toContain('kactl sandbox start --tls --detach');
    expect(all).toContain('kactl app set --force-hwid false');
    // Every `kactl sandbox connect <sdk>` the page names is one the command knows.
    for (const [, sdk] of text.matchAll(/kactl sandbox connect ([a-z+#]+)/g)) expect(['python', 'csharp', 'cpp', 'php', 'go', 'react', 'java', 'node', 'c++']).toContain(sdk);
  });

  it('runs every ```sh block top to bottom in one fresh bash', async () => {
    const root = tempDir('kactl-testing-doc-');
    const [bin, work, config, data] = ['bin', 'work', 'config', 'data'].map((name) => path.join(root, name));
    for (const dir of [bin!, work!, config!, data!]) fs.mkdirSync(dir);
    fs.symlinkSync(KACTL_BIN, path.join(bin!, 'kactl'));
    dataDirs.push(data!);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: root, NO_COLOR: '1', KACTL_CONFIG_DIR: config!, KACTL_DATA_DIR: data! };
    // A sandbox the page did not start: no block may stop it (a reader's own keeps running).
    const bystander = await bash('kactl sandbox start --detach --no-profile --port 0 --data bystander.db', work!, env);
    expect(bystander.code, bystander.stderr).toBe(0);
    const result = await bash(shellScript(runnableBlocks(text), 'docs/testing-your-program.md'), work!, env);
    const after = await bash('kactl sandbox status --json', work!, env);
    const stopped = await bash('kactl sandbox stop --all', work!, env);
    expect(result.code, `a block failed (the last "::: docs/testing-your-program.md block" line names it):\n${result.stderr}`).toBe(0);
    expect(result.stderr).toContain('::: docs/testing-your-program.md: every block ran');
    expect(result.stdout).toContain('"forcehwid": false');
    // The CI section's faulted run: the forged signature refused with exit 5.
    expect(result.stdout).toContain('exit status 5');
    expect(result.stdout).toMatch(/std::string url = skCrypt\("https:\/\/[^"/]+\/api\/1\.3\/"\)\.decrypt\(\);/);
    expect(result.stdout).toMatch(/KeyAuthApp\.set_allowed_hosts\(\{ "[^"]+" \}\);/);
    expect(result.stdout).toMatch(/static const uint8_t k_pubkey_obf2\[64\] = \{/);
    // The audit section: the naive program fails 7 scenarios (exit 1), the checked one passes all.
    expect(result.stdout).toMatch(/Failed 7 of 19 graded scenarios \(1 informational, 1 skipped\)\. Worst: accepted\s+an answer signed by another server/);
    expect(result.stdout).toContain('Passed: all 19 graded scenarios (1 informational, 1 skipped).');
    expect(result.stdout).toMatch(/^21$/m);
    expect(stopped.code, stopped.stderr).toBe(0);
    const running = JSON.parse(after.stdout) as { data: string; state: string }[];
    expect(running, 'a block stopped a sandbox the page did not start').toEqual([expect.objectContaining({ data: path.join(work!, 'bystander.db'), state: 'ready' })]);
  }, 330_000);
});
