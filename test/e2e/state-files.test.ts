/**
 * State files through the built CLI, as an attacker would try them (issue 21, items 2 and 17):
 * an end user's `${KACTL_SELLER_KEY}` stays text through export and apply (seeds included), the
 * environment is read only where a file says `!env NAME` and never printed, and files that are
 * too big, alias bombs or values no state file can hold end in one line and exit 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const HWID = 'e2e-state-files-hwid-00001';
const SLOW = 60_000;

let a: E2ESandbox;
let b: E2ESandbox;

beforeAll(async () => {
  [a, b] = await Promise.all([startE2ESandbox(), startE2ESandbox()]);
  await a.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});

afterAll(async () => {
  await Promise.all([a.stop(), b.stop()]);
});

function writeFile(name: string, text: string): string {
  const file = path.join(tempDir('kactl-state-files-'), name);
  fs.writeFileSync(file, text);
  return file;
}

describe('the environment reaches a state file only where it says !env (21.2)', () => {
  it("an end user's ${KACTL_SELLER_KEY} comes out of export and goes into another server as that text", async () => {
    await a.ok(['users', 'create', '--username', 'eve', '--password', 'eve-pass-0001', '--sub', 'default', '--expiry', '30']);
    await a.ok(['client', 'init', '--new']);
    await a.ok(['client', 'login', '--username', 'eve', '--password-stdin'], { input: 'eve-pass-0001' });
    await a.ok(['client', 'var', 'set', 'note', '${KACTL_SELLER_KEY}']);
    const exported = (await a.ok(['export'])).stdout;
    expect(exported).toContain('value: $${KACTL_SELLER_KEY}');
    const file = writeFile('eve.yaml', exported);
    // CI keeps the seller key in the environment, as kactl reads it.
    const env = { KACTL_SELLER_KEY: b.info.sellerKey };
    const dry = await b.ok(['apply', '-f', file, '--dry-run'], { env });
    expect(dry.stdout).toContain('+ create uservar eve/note (value "${KACTL_SELLER_KEY}")');
    expect(dry.stdout + dry.stderr).not.toContain(b.info.sellerKey);
    await b.ok(['apply', '-f', file], { env });
    const stored = JSON.parse((await b.ok(['seller', 'call', 'getvar', 'user=eve', 'var=note'])).stdout) as { response: string };
    expect(stored.response).toBe('${KACTL_SELLER_KEY}');
  }, SLOW);

  it('!env NAME reads the variable, no plan prints it, and ${NAME} in a file is refused with its line', async () => {
    const file = writeFile('env.yaml', 'variables:\n  api-token: { value: !env API_TOKEN, authed: true }\n');
    const dry = await b.ok(['apply', '-f', file, '--dry-run', '--json'], { env: { API_TOKEN: 'tok-9f8e7d6c5b4a' } });
    expect(JSON.parse(dry.stdout).plan).toEqual([{ action: 'create', type: 'variables', id: 'api-token', changes: ['value (from $API_TOKEN)', 'authed true'], calls: ['addvar'] }]);
    expect(dry.stdout + dry.stderr).not.toContain('tok-9f8e7d6c5b4a');
    const plain = await b.ok(['apply', '-f', file], { env: { API_TOKEN: 'tok-9f8e7d6c5b4a' } });
    expect(plain.stdout + plain.stderr).not.toContain('tok-9f8e7d6c5b4a');
    expect((await b.ok(['vars', 'get', 'api-token'])).stdout).toContain('tok-9f8e7d6c5b4a');

    const old = writeFile('old.yaml', 'variables:\n  motd: { value: "hi ${USER}" }\n');
    const refused = await b.kactl(['apply', '-f', old], { env: { USER: 'someone' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${old}, line 2: "\${USER}" is not read from the environment: write the whole value as !env USER, or $\${…} for the text itself.`);
  }, SLOW);

  it('sandbox start --seed and a flows seed follow the same rules', async () => {
    const seed = writeFile('seed.yaml', 'variables:\n  leak: { value: "${KACTL_SELLER_KEY}" }\n');
    const started = await runKactl(['sandbox', 'start', '--port', '0', '--data', ':memory:', '--no-rate-limit', '--json', '--seed', seed], {
      configDir: tempDir('kactl-seed-'),
      env: { KACTL_SELLER_KEY: 'S'.repeat(32) },
      timeoutMs: 30_000,
    });
    expect(started.code).toBe(2);
    expect(started.stderr).toContain(`${seed}, line 2: "\${KACTL_SELLER_KEY}" is not read from the environment`);
    expect(started.stdout + started.stderr).not.toContain('S'.repeat(32));
    // What the file asks for by name, it gets.
    const named = writeFile('named.yaml', 'variables:\n  from-env: { value: !env SEED_VALUE }\n  priced: { value: "costs $$5" }\n');
    const seeded = await startE2ESandbox({ args: ['--seed', named], env: { SEED_VALUE: 'seed-value-0042' } });
    try {
      const vars = JSON.parse((await seeded.ok(['vars', 'list', '--json'])).stdout) as { varid: string; msg: string }[];
      expect(Object.fromEntries(vars.map((v) => [v.varid, v.msg]))).toEqual({ 'from-env': 'seed-value-0042', priced: 'costs $5' });
    } finally {
      await seeded.stop();
    }

    const flows = writeFile('flows.yaml', [
      'seed:',
      '  variables:',
      '    shown: { value: "$${KACTL_SELLER_KEY} costs $$5" }',
      'flows:',
      '  - name: the seed kept the text',
      '    steps:',
      '      - client: init',
      '      - client: var',
      '        with: { varid: shown }',
      // A regex: a flow step's own ${name} would read saved values and the environment.
      "        expect: { success: true, message: '/^\\$\\{KACTL_SELLER_KEY\\} costs \\$5$/' }",
      '',
    ].join('\n'));
    const ran = await runKactl(['test', flows], { configDir: tempDir('kactl-flows-'), env: { KACTL_SELLER_KEY: 'S'.repeat(32) }, timeoutMs: 60_000 });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
  }, SLOW);
});

describe('files kactl cannot mean end in one line and exit 2 (21.17)', () => {
  it('a file over the cap, an alias bomb, a key named like Object.prototype', async () => {
    const big = writeFile('big.yaml', '');
    fs.truncateSync(big, 5 * 1024 * 1024);
    const tooBig = await b.kactl(['apply', '-f', big]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toBe(`error: ${big} is 5.00 MB; kactl reads state and flows files of at most 4 MB (split it into several files).\nRun 'kactl apply --help' for usage.\n`);

    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    const bomb = await b.kactl(['apply', '-f', writeFile('bomb.yaml', `${levels.join('\n')}\n`)]);
    expect(bomb.code).toBe(2);
    expect(bomb.stderr).toMatch(/bomb\.yaml, line 2: not valid YAML or JSON: Excessive alias count/);
    expect(bomb.stderr).not.toContain('unexpected failure');

    const proto = await b.kactl(['apply', '-f', writeFile('proto.yaml', 'channels:\n  - { name: c, constructor: 1 }\n')]);
    expect(proto.code).toBe(2);
    expect(proto.stderr).toContain('line 2: channels[0].constructor: unknown key "constructor"');
  }, SLOW);

  it('export leaves out what apply would refuse, says so, and its file applies', async () => {
    await a.ok(['licenses', 'create', '--amount', '1', '--expiry', '1', '--mask', 'ZERO-KEY-0001']);
    await a.ok(['licenses', 'edit', 'ZERO-KEY-0001', '--seconds', '0']);
    const result = await a.ok(['export']);
    expect(result.stderr).toMatch(/Left out: license ZERO-KEY-0001: duration: "0d" is not valid here .*; no state file can hold it\./);
    expect(result.stdout).not.toContain('ZERO-KEY-0001');
    expect(result.stdout).not.toMatch(/\.nan|\.inf|e\+/);
    await b.ok(['apply', '-f', writeFile('zero.yaml', result.stdout), '--dry-run']);
  }, SLOW);
});
