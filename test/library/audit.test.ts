/**
 * kactl/sandbox's `audit()` as a test suite calls it: small programs written here (Node, global
 * fetch, no kactl) run once per scenario against a real sandbox in this process. A program that
 * ignores every answer fails every scenario it must refuse; one that hangs is reported hung and
 * leaves nothing running; `acceptedWhen` and `keyStdin` change what is read and given; a crash on
 * a refusal passes with a note; the program gets the audit's variables.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit, AUDIT_SCENARIOS, type AuditReport, type AuditScenarioResult } from '../../src/sandbox.js';
import { UsageError } from '../../src/index.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A Node program in a temp folder; `body` runs with `env`, `call(params)` (a POST to KEYAUTH_URL, the parsed answer) and `hwid`. */
function program(body: string): string[] {
  const file = path.join(tempDir(), 'program.mjs');
  fs.writeFileSync(
    file,
    `const env = process.env;
const hwid = 'HWID-AUDIT-TEST-0123456789';
async function call(params) {
  const answer = await fetch(env.KEYAUTH_URL, { method: 'POST', body: new URLSearchParams({ name: env.KEYAUTH_NAME, ownerid: env.KEYAUTH_OWNERID, ...params }) });
  return answer.json();
}
${body}
`,
  );
  return [process.execPath, file];
}

/** Whether `pid` still runs (a zombie waiting for init to reap it has ended), once up to 2 s have passed for it to go. */
async function runsAfterAWhile(pid: number): Promise<boolean> {
  const runs = (): boolean => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
    } catch {
      return false;
    }
  };
  for (let waited = 0; waited < 2000 && runs(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  return runs();
}

function byId(report: AuditReport): Record<string, AuditScenarioResult> {
  return Object.fromEntries(report.scenarios.map((result) => [result.id, result]));
}

const graded = (expected: 'accepted' | 'refused'): string[] => AUDIT_SCENARIOS.filter((info) => info.graded && info.expected === expected && info.apis.includes('1.3')).map((info) => info.id);

describe('audit()', () => {
  it('a program that ignores every answer (it always exits 0) fails every scenario it must refuse', { timeout: 180_000 }, async () => {
    const command = program(`
try {
  const init = await call({ type: 'init', ver: env.KEYAUTH_VERSION });
  await call({ type: 'license', key: env.KEYAUTH_LICENSE, hwid, sessionid: init.sessionid });
  await call({ type: 'login', username: env.KEYAUTH_USERNAME, pass: env.KEYAUTH_PASSWORD, hwid, sessionid: init.sessionid });
} catch {}
console.log('started');
`);
    const seen: string[] = [];
    const report = await audit({ command, env: process.env, onScenario: (result, index, total) => seen.push(`${index + 1}/${total} ${result.id}`) });
    const results = byId(report);
    expect(report.passed).toBe(false);
    for (const id of graded('refused')) expect(results[id], id).toMatchObject({ status: 'failed', outcome: 'accepted', exitCode: 0, finding: expect.any(String) });
    for (const id of graded('accepted')) expect(results[id], id).toMatchObject({ status: 'passed', outcome: 'accepted' });
    expect(results['replayed-fresh']).toMatchObject({ status: 'informational', outcome: 'accepted' });
    expect(report.counts).toEqual({ passed: 2, failed: graded('refused').length, informational: 1, skipped: 0 });
    expect(report.worst).toEqual({ scenario: 'forged', finding: 'accepted an answer signed by another server: anyone can write a fake server for this program' });
    expect(report.summary).toMatch(/^Failed 18 of 20 graded scenarios \(1 informational\)\. Worst: accepted an answer signed by another server/);
    expect(seen[0]).toBe(`1/${report.scenarios.length} valid-license`);
    expect(seen).toHaveLength(report.scenarios.length);
    // The requests it made, with the inspector's reasons and the fault that changed an answer.
    expect(results['banned']!.requests.map((request) => request.type)).toEqual(['init', 'license', 'login']);
    expect(results['banned']!.requests[1]).toMatchObject({ api: '1.3', success: false, message: 'Your license is banned', reason: expect.stringContaining('is banned') });
    expect(results['forged']!.requests[0]).toMatchObject({ type: 'init', fault: '#1 emulate' });
    expect(results['unreachable']!.requests).toEqual([]);
    expect(results['valid-license']!.output.stdout).toBe('started\n');
  });

  it('a program still running at the timeout is hung, a failure in every scenario, and nothing it started outlives it', { timeout: 60_000 }, async () => {
    const pids = path.join(tempDir(), 'pids');
    const command = program(`
import('node:child_process').then(({ spawn }) => {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  (await import('node:fs')).appendFileSync(${JSON.stringify(pids)}, child.pid + '\\n');
});
setInterval(() => {}, 1000);
`.replace('.then(({ spawn }) => {', '.then(async ({ spawn }) => {'));
    const report = await audit({ command, env: process.env, scenarios: ['valid-license', 'forged'], timeoutMs: 1500 });
    for (const result of report.scenarios) {
      expect(result, result.id).toMatchObject({ status: 'failed', outcome: 'hung', exitCode: null, did: 'hung: still running after 1.5 s (ended)', finding: expect.stringMatching(/^hung on /) });
    }
    const started = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(started).toHaveLength(2);
    for (const pid of started) expect(await runsAfterAWhile(pid), `sleep ${pid} still runs`).toBe(false);
  });

  it('keyStdin gives the key on stdin; acceptedWhen reads stdout instead of the exit status', { timeout: 60_000 }, async () => {
    // Reads the key from its input, as a program that asks "Enter license:" does; always exits 0.
    const command = program(`
let key = '';
for await (const chunk of process.stdin) key += chunk;
const init = await call({ type: 'init', ver: env.KEYAUTH_VERSION });
const login = await call({ type: 'license', key: key.trim(), hwid, sessionid: init.sessionid });
console.log(login.success ? 'Welcome!' : 'Enter license: ' + login.message);
`);
    const scenarios = ['valid-license', 'unknown-key'];
    const both = byId(await audit({ command, env: process.env, scenarios, keyStdin: true, acceptedWhen: /^Welcome/m }));
    expect(both['valid-license']).toMatchObject({ status: 'passed', outcome: 'accepted', did: 'accepted (stdout matched; exit 0)' });
    expect(both['unknown-key']).toMatchObject({ status: 'passed', outcome: 'refused', did: 'refused (stdout did not match; exit 0)' });
    // Without acceptedWhen, exit 0 is a start: the unknown key "got in".
    const byExit = byId(await audit({ command, env: process.env, scenarios, keyStdin: true }));
    expect(byExit['unknown-key']).toMatchObject({ status: 'failed', outcome: 'accepted' });
    // Without keyStdin, its input is empty: the customer's key never reaches the server.
    const noKey = byId(await audit({ command, env: process.env, scenarios, acceptedWhen: 'Welcome' }));
    expect(noKey['valid-license']).toMatchObject({ status: 'failed', outcome: 'refused', finding: expect.stringMatching(/^refused a paying customer/) });
  });

  it('a crash on a refusal passes with a note, and the program finds the audit\'s variables', { timeout: 60_000 }, async () => {
    const dump = path.join(tempDir(), 'env.json');
    const command = program(`
(await import('node:fs')).writeFileSync(${JSON.stringify(dump)}, JSON.stringify(Object.fromEntries(Object.entries(env).filter(([name]) => /^(KEYAUTH_|KACTL_AUDIT)/.test(name)))));
const init = await call({ type: 'init', ver: env.KEYAUTH_VERSION });
const login = await call({ type: 'license', key: env.KEYAUTH_LICENSE, hwid, sessionid: init.sessionid });
if (!login.success) throw new Error(login.message);
`);
    const report = await audit({ command, env: process.env, scenarios: ['unknown-key'], api: '1.2' });
    expect(report.scenarios[0]).toMatchObject({ status: 'passed', outcome: 'crashed', did: 'crashed: an uncaught JavaScript exception (exit 1)', note: expect.stringMatching(/^Refused by crashing/) });
    expect(report.scenarios[0]!.output.stderr).toContain('Error: Invalid license key');
    const env = JSON.parse(fs.readFileSync(dump, 'utf8')) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual([
      'KACTL_AUDIT_SCENARIO',
      'KEYAUTH_LICENSE',
      'KEYAUTH_NAME',
      'KEYAUTH_OWNERID',
      'KEYAUTH_PASSWORD',
      'KEYAUTH_PUBLIC_KEY',
      'KEYAUTH_SECRET',
      'KEYAUTH_URL',
      'KEYAUTH_USERNAME',
      'KEYAUTH_VERSION',
    ]);
    expect(env).toMatchObject({ KACTL_AUDIT_SCENARIO: 'unknown-key', KEYAUTH_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/1\.2\/$/), KEYAUTH_VERSION: '1.0', KEYAUTH_LICENSE: 'UNKNOWN-KEY-0000-0000-0000' });
    expect(env.KEYAUTH_PUBLIC_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(env.KEYAUTH_SECRET).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses what it cannot run, before anything starts', async () => {
    await expect(audit({ command: [] })).rejects.toThrow(UsageError);
    await expect(audit({ command: ['node'], scenarios: ['nope'] })).rejects.toThrow(/Unknown audit scenario "nope"/);
    await expect(audit({ command: ['node'], acceptedWhen: '(' })).rejects.toThrow(/acceptedWhen is not a regular expression/);
    await expect(audit({ command: ['node'], timeoutMs: 0 })).rejects.toThrow('timeoutMs must be above 0 and at most 10 minutes.');
    await expect(audit({ command: ['no-such-program-kactl-audit'], env: process.env, scenarios: ['valid-license'] })).rejects.toThrow('no-such-program-kactl-audit: command not found (not a file, and not on the program\'s PATH).');
  });
});

// `sleep` is what the hung program starts, and /proc says whether it still runs: Linux, as CI.
if (spawnSync('sleep', ['0']).status !== 0 || !fs.existsSync('/proc/self/stat')) throw new Error('these tests need sleep(1) and /proc (Linux)');
