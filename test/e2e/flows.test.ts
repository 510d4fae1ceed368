/**
 * `kactl test` through the built CLI: the examples pass and write a JUnit file CI can read; a
 * wrong expectation fails with the step, the expectation and the answer; a bad file is refused
 * with its line; `--profile` runs the flows against a running server instead; and
 * `sandbox start --seed` applies a state file before the ready line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const EXAMPLES = path.resolve(__dirname, '../../examples');

function write(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const WRONG = `seed:
  subscriptions: [ { name: default, level: 1 } ]
  licenses: [ { key: WRONG-KEY-0001, level: 1, expiry: 1d } ]
flows:
  - name: a key that works
    steps:
      - client: init
      - client: license
        with: { key: WRONG-KEY-0001, hwid: HWID-WRONG-TEST-000001 }
        expect: { success: true }
  - name: an expectation that is wrong
    steps:
      - client: init
      - name: sign in with a key nobody made
        client: license
        with: { key: NO-SUCH-KEY, hwid: HWID-WRONG-TEST-000001 }
        expect: { success: true, message: /welcome/ }
      - client: check
  - name: never reached with --bail
    steps:
      - client: init
`;

describe('kactl test', () => {
  it('runs the examples (each flow on a fresh session) and writes a JUnit file', async () => {
    const dir = tempDir('kactl-flows-');
    const junit = path.join(dir, 'junit.xml');
    const result = await runKactl(['test', path.join(EXAMPLES, 'flows.yaml'), '--junit', junit], { configDir: dir, timeoutMs: 120_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/5 flows: 5 passed, 0 failed\.\n$/);
    expect(result.stdout).toContain('    ok approve magic-link');
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="kactl test" tests="5" failures="0"/);
    const cases = [...xml.matchAll(/<testcase classname="[^"]*flows\.yaml" name="([^"]+)" time="\d+\.\d{3}"\/>/g)].map((m) => m[1]);
    expect(cases).toEqual([
      'a user with a password turns on 2FA and signs in with a code',
      'a user signs in with a magic link, reads variables and chats',
      'a user signs in with an emailed code',
      'a banned HWID cannot sign in, a fresh key can, a used key cannot',
      'a license user signs in, upgrades, and the key runs out',
    ]);
    expect(xml).not.toContain('<failure');
  });

  it('fails with the step, the expectation and the answer (exit 1), in the output, JUnit and --json', async () => {
    const dir = tempDir('kactl-flows-');
    const file = write(dir, 'wrong.yaml', WRONG);
    const junit = path.join(dir, 'junit.xml');
    const result = await runKactl(['test', file, '--junit', junit], { configDir: dir, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  ok a key that works');
    expect(result.stdout).toContain('    FAIL sign in with a key nobody made: success: expected true, got false; message: expected "/welcome/", got "Invalid license key"');
    expect(result.stdout).toContain('  FAIL an expectation that is wrong (2 steps');
    expect(result.stdout).toContain('3 flows: 2 passed, 1 failed.');
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="3" failures="1"');
    expect(xml).toContain('<failure message="step 2 (sign in with a key nobody made): success: expected true, got false; message: expected &quot;/welcome/&quot;, got &quot;Invalid license key&quot;" type="expectation">');
    expect(xml).toMatch(/answer: \{\n {2}&quot;success&quot;: false,\n[^<]*&quot;message&quot;: &quot;Invalid license key&quot;[^<]*exit code: 1<\/failure>/);

    const json = await runKactl(['test', file, '--json', '--bail'], { configDir: dir, timeoutMs: 60_000 });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { passed: boolean; failed: number; skipped: number; files: { flows: { name: string; skipped: boolean; steps: { label: string; failures: string[]; exit: number }[] }[] }[] };
    expect(report).toMatchObject({ passed: false, failed: 1, skipped: 1 });
    const failedFlow = report.files[0]!.flows[1]!;
    expect(failedFlow.steps.at(-1)).toMatchObject({ label: 'sign in with a key nobody made', exit: 1 });
    expect(report.files[0]!.flows[2]).toMatchObject({ name: 'never reached with --bail', skipped: true });
  });

  it('refuses an unknown client operation or parameter when the file loads: line, sentence, nearest name, exit 2', async () => {
    const dir = tempDir('kactl-flows-');
    const typo = write(dir, 'typo.yaml', 'flows:\n  - name: x\n    steps:\n      - client: init\n      - client: regster\n        with: { username: a, pass: b, key: K }\n');
    const result = await runKactl(['test', typo], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: ${typo}, line 5: No client operation is called "regster". Did you mean register?`);
    expect(result.stdout).toBe('');

    const flag = write(dir, 'flag.yaml', 'flows:\n  - name: x\n    steps:\n      - client: init\n      - client: login\n        with:\n          username: alice\n          password: alice-pass\n');
    const named = await runKactl(['test', flag], { configDir: dir });
    expect(named.code).toBe(2);
    expect(named.stderr.split('\n')[0]).toBe(`error: ${flag}, line 8: The client operation login has no parameter "password". Did you mean pass?`);
  });

  it("runs steps named by the CLI's own commands as their operations", async () => {
    const dir = tempDir('kactl-flows-');
    const file = write(
      dir,
      'verbs.yaml',
      `seed:
  subscriptions: [ { name: default, level: 1 } ]
  licenses: [ { key: VERB-KEY-0001, level: 1, expiry: 1d } ]
  channels: [ { name: lobby } ]
flows:
  - name: the kactl commands
    steps:
      - client: init
      - client: license
        with: { key: VERB-KEY-0001, hwid: HWID-VERB-TEST-000001 }
      - client: var set
        with: { var: theme, data: dark }
      - client: var get
        with: { var: theme }
        expect: { success: true, response: dark }
      - client: chat send
        with: { channel: lobby, message: hello }
      - client: chat read
        with: { channel: lobby }
        expect: { "messages[0].message": hello }
      - client: 2fa enable
        expect: { success: true }
      - client: stats
        expect: { success: true }
`,
    );
    const result = await runKactl(['test', file], { configDir: dir, timeoutMs: 60_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('    ok client var set');
    expect(result.stdout).toContain('    ok client 2fa enable');
    expect(result.stdout).toContain('1 flow: 1 passed, 0 failed.');
  });

  it('refuses a flows file with the line and what was expected, and runs nothing', async () => {
    const dir = tempDir('kactl-flows-');
    const file = write(dir, 'bad.yaml', 'flows:\n  - name: x\n    steps:\n      - client: init\n        expcet: { success: true }\n');
    const result = await runKactl(['test', file], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}, line 5: flows[0].steps[0].expcet: unknown key "expcet"`);
    expect(result.stdout).toBe('');
  });
});

describe('kactl test against a running server, and sandbox start --seed', () => {
  let sb: E2ESandbox;

  beforeAll(async () => {
    sb = await startE2ESandbox({ args: ['--seed', path.join(EXAMPLES, 'kactl.yaml')] });
  });

  afterAll(async () => {
    await sb.stop();
  });

  it('the seeded sandbox holds the state file before it reports ready', async () => {
    const keys = (await sb.json<{ key: string }[]>(['licenses', 'list'])).map((k) => k.key);
    expect(keys).toEqual(expect.arrayContaining(['CI-KEY-0001', 'CI-KEY-0002', 'CI-UPGRADE-0001', 'CI-SHORT-0001']));
    expect(keys).toHaveLength(9);
    expect((await sb.ok(['apply', '-f', path.join(EXAMPLES, 'kactl.yaml')])).stdout).toContain('No changes');
  });

  it('--profile runs the flows against that server (no seed of its own needed)', async () => {
    const file = write(tempDir('kactl-flows-'), 'remote.yaml', `flows:
  - name: the seeded key signs in on the running sandbox
    steps:
      - client: init
      - client: license
        with: { key: CI-KEY-0002, hwid: HWID-REMOTE-TEST-00001 }
        expect: { success: true }
      - seller: info
        with: { key: CI-KEY-0002 }
        expect: { status: Used }
`);
    const result = await sb.kactl(['test', file, '--profile', 'sandbox']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const info = await sb.json<{ status: string }>(['licenses', 'get', 'CI-KEY-0002']);
    expect(info.status).toBe('Used');
  });

  it('against a profile without a public key the client steps are refused; kactl test --no-verify takes them unchecked', async () => {
    const added = await sb.kactl(['profile', 'add', 'keyless', '--base-url', sb.info.baseUrl, '--app-name', sb.info.app.name, '--ownerid', sb.info.app.ownerid, '--force']);
    expect(added.code, added.stderr).toBe(0);
    const file = write(tempDir('kactl-flows-'), 'keyless.yaml', `flows:
  - name: init without a key to check it with
    steps:
      - client: init
`);
    const refused = await sb.kactl(['test', file, '--profile', 'keyless']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('kactl has no public key to check the server');
    const unchecked = await sb.kactl(['test', file, '--profile', 'keyless', '--no-verify']);
    expect(unchecked.code, unchecked.stdout + unchecked.stderr).toBe(0);
  });

  it('a seed file that cannot be applied stops the start', async () => {
    const dir = tempDir('kactl-seed-');
    const file = write(dir, 'bad.yaml', 'subscriptions:\n  - { name: x }\n');
    const result = await runKactl(['sandbox', 'start', '--port', '0', '--data', ':memory:', '--json', '--seed', file], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file}, line 2: subscriptions[0]: "level" is required`);
  });
});
