/**
 * `kactl sandbox audit -- COMMAND` with the real binary, on real programs: the two examples of
 * examples/audit/ (kactl/client's sound check, and a naive one that trusts `success`), and a
 * Python program built on requests as a tester would write it, which checks the Ed25519
 * signature, its timestamp both ways, the ownerid and replays within its run; then the same
 * program with the check removed. The JUnit report validates against the JUnit schema (xmllint).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/built.js';
import { runKactl, type SpawnResult } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A whole audit is ~20 runs of a program: room for a loaded two-core machine. */
const AUDIT_MS = 300_000;

/** The scenarios a program fails when it checks no signature: every hostile answer says success. */
const SIGNATURE_SCENARIOS = ['forged', 'unsigned', 'tampered', 'other-app', 'stale', 'future', 'replayed'];

interface Result {
  id: string;
  status: 'passed' | 'failed' | 'informational' | 'skipped';
  outcome: string | null;
  graded: boolean;
  expected: string;
  note: string | null;
  requests: { type: string | null; fault: string | null }[];
}

interface Report {
  passed: boolean;
  summary: string;
  worst: { scenario: string; finding: string } | null;
  api: string;
  scenarios: Result[];
}

function audit(args: readonly string[], timeoutMs = AUDIT_MS): Promise<SpawnResult> {
  return runKactl(['sandbox', 'audit', ...args], { configDir: tempDir('kactl-audit-config-'), cwd: ROOT, timeoutMs });
}

function reportOf(result: SpawnResult): Report {
  expect(result.stderr, result.stderr).not.toMatch(/error:/);
  return JSON.parse(result.stdout) as Report;
}

const failedIds = (report: Report): string[] => report.scenarios.filter((one) => one.status === 'failed').map((one) => one.id).sort();

/** The first failure against the JUnit schema, or undefined when the file validates. */
function junitProblem(file: string): string | undefined {
  const checked = spawnSync('xmllint', ['--noout', '--schema', path.join(ROOT, 'test/fixtures/junit/junit.xsd'), file], { encoding: 'utf8' });
  if (checked.error !== undefined) {
    if (process.env.CI) throw new Error('xmllint is missing: .ci/run installs libxml2-utils');
    return undefined;
  }
  return checked.status === 0 ? undefined : checked.stderr;
}

function hasXmllint(): boolean {
  return spawnSync('xmllint', ['--version']).status === 0;
}

describe('kactl sandbox audit on the examples', () => {
  it('the sound example (kactl/client with its public key) passes every graded scenario; its JUnit file validates', { timeout: AUDIT_MS }, async () => {
    const junit = path.join(tempDir(), 'sound.xml');
    const result = await audit(['-o', 'json', '--junit', junit, '--', 'node', 'examples/audit/sound.mjs']);
    const report = reportOf(result);
    expect(result.code, result.stderr).toBe(0);
    expect(failedIds(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.summary).toBe('Passed: all 19 graded scenarios (1 informational, 1 skipped).');
    const byId = Object.fromEntries(report.scenarios.map((one) => [one.id, one]));
    // It logs in with the license: the username and password scenario does not apply to it.
    expect(byId['valid-login']).toMatchObject({ status: 'skipped', note: expect.stringContaining('no username and password login') });
    expect(byId['forged']).toMatchObject({ status: 'passed', outcome: 'refused' });
    // Its answer memory lives in the process: an earlier run's login, still fresh, gets in.
    expect(byId['replayed-fresh']).toMatchObject({ status: 'informational', outcome: 'accepted' });
    expect(junitProblem(junit)).toBeUndefined();
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="kactl sandbox audit" tests="21" failures="0"/);
    expect(xml).toContain('<testcase classname="kactl sandbox audit 1.3" name="forged: a fake server (emulator)"');
    expect(xml).toContain('<skipped message="Not applicable: the program made no username and password login (no login request)."/>');
  });

  it('the sound example logging in with a username and password passes valid-login', { timeout: AUDIT_MS }, async () => {
    const report = reportOf(await audit(['--json', '--scenarios', 'valid-license,valid-login,forged,banned', '--', 'node', 'examples/audit/sound.mjs', '--user']));
    expect(report.scenarios.map((one) => [one.id, one.status])).toEqual([
      ['valid-license', 'passed'],
      ['valid-login', 'passed'],
      ['forged', 'passed'],
      ['banned', 'passed'],
    ]);
    expect(report.scenarios[1]!.requests.map((request) => request.type)).toEqual(['init', 'login']);
  });

  it('the naive example fails exactly the forged, unsigned, tampered, other-app, stale, future and replayed answers', { timeout: AUDIT_MS }, async () => {
    const junit = path.join(tempDir(), 'naive.xml');
    const result = await audit(['--junit', junit, '--', 'node', 'examples/audit/naive.mjs']);
    expect(result.code, result.stderr).toBe(1);
    // The table for people: a row per scenario, and the worst finding named in plain words.
    expect(result.stdout).toMatch(/^Audit of node examples\/audit\/naive\.mjs \(client API 1\.3\), 21 scenarios in /);
    expect(result.stdout).toMatch(/^forged +refused +FAIL: accepted +0 /m);
    expect(result.stdout).toMatch(/^banned +refused +pass: refused +1 /m);
    const summary = result.stdout.slice(result.stdout.lastIndexOf('\n\n') + 2).replace(/\s+/g, ' ').trim();
    expect(summary).toBe('Failed 7 of 19 graded scenarios (1 informational, 1 skipped). Worst: accepted an answer signed by another server: anyone can write a fake server for this program (forged).');
    expect(junitProblem(junit)).toBeUndefined();
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="kactl sandbox audit" tests="21" failures="7"/);
    expect([...xml.matchAll(/<testcase [^>]*name="([^":]+):/g)].filter((match) => xml.slice(match.index).split('</testcase>')[0]!.includes('<failure ')).map((match) => match[1]).sort()).toEqual([...SIGNATURE_SCENARIOS].sort());
    expect(xml).toContain('<failure message="accepted an answer signed by another server: anyone can write a fake server for this program" type="accepted">');
  });
});

/** A python3 that imports requests and cryptography (the machine's, or Debian's), or undefined. */
function pythonWithCrypto(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3', '/usr/local/bin/python3']) {
    if (spawnSync(candidate, ['-c', 'import requests, cryptography'], { encoding: 'utf8' }).status === 0) return candidate;
  }
  return undefined;
}

/**
 * A license check a tester writes with requests: every answer's Ed25519 signature over the
 * timestamp and the body, checked with the public key; the timestamp within a minute either
 * way; the answer's ownerid its own; no signature twice in one run.
 */
const PYTHON_PROGRAM = `
import hashlib, os, platform, sys, time
import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

URL = os.environ["KEYAUTH_URL"]
OWNERID = os.environ["KEYAUTH_OWNERID"]
PUBLIC_KEY = Ed25519PublicKey.from_public_bytes(bytes.fromhex(os.environ["KEYAUTH_PUBLIC_KEY"]))
WINDOW = 60
HWID = hashlib.sha256(platform.node().encode()).hexdigest()
seen = set()

class Refused(Exception):
    pass

def verify(response, answer):
    signature = response.headers.get("x-signature-ed25519", "")
    timestamp = response.headers.get("x-signature-timestamp", "")
    if not signature or not timestamp:
        raise Refused("the answer is not signed")
    try:
        PUBLIC_KEY.verify(bytes.fromhex(signature), timestamp.encode() + response.content)
    except (InvalidSignature, ValueError):
        raise Refused("the signature does not match")
    if abs(time.time() - int(timestamp)) > WINDOW:
        raise Refused("the answer is not fresh")
    if answer.get("ownerid") != OWNERID:
        raise Refused("the answer is for another application")
    if signature in seen:
        raise Refused("the answer was sent before")
    seen.add(signature)

def call(**params):
    response = requests.post(URL, data={"name": os.environ["KEYAUTH_NAME"], "ownerid": OWNERID, **params}, timeout=10)
    answer = response.json()
    verify(response, answer)
    if not answer.get("success"):
        raise Refused(answer.get("message", "refused"))
    return answer

try:
    session = call(type="init", ver=os.environ["KEYAUTH_VERSION"])["sessionid"]
    call(type="license", key=os.environ["KEYAUTH_LICENSE"], hwid=HWID, sessionid=session)
except (Refused, requests.RequestException, ValueError, KeyError) as error:
    print("Not started:", error, file=sys.stderr)
    sys.exit(1)
print("Licensed.")
`;

describe('kactl sandbox audit on a Python program built on requests', () => {
  const python = pythonWithCrypto();

  it('passes with its Ed25519 check, and fails the signature scenarios without it', { timeout: 2 * AUDIT_MS }, async (ctx) => {
    if (python === undefined) {
      if (process.env.CI) throw new Error('no python3 that imports requests and cryptography: .ci/run installs python3-requests and python3-cryptography');
      ctx.skip('no python3 that imports requests and cryptography');
    }
    const folder = tempDir('kactl-audit-python-');
    const checked = path.join(folder, 'checked.py');
    const unchecked = path.join(folder, 'unchecked.py');
    fs.writeFileSync(checked, PYTHON_PROGRAM);
    // The same program with the verification removed.
    expect(PYTHON_PROGRAM).toContain('    verify(response, answer)\n');
    fs.writeFileSync(unchecked, PYTHON_PROGRAM.replace('    verify(response, answer)\n', ''));

    const sound = reportOf(await audit(['--json', '--', python!, checked]));
    expect(failedIds(sound), JSON.stringify(sound.scenarios.filter((one) => one.status === 'failed'))).toEqual([]);
    expect(sound.passed).toBe(true);

    const naive = await audit(['--json', '--', python!, unchecked]);
    expect(naive.code).toBe(1);
    const report = reportOf(naive);
    expect(failedIds(report)).toEqual([...SIGNATURE_SCENARIOS].sort());
    expect(report.worst?.scenario).toBe('forged');
  });
});

describe('kactl sandbox audit: the list and the mistakes', () => {
  it('--list says what each scenario does; --list --api 1.2 shows the emulator that knows the secret', { timeout: 60_000 }, async () => {
    const listed = await audit(['--list']);
    expect(listed.code).toBe(0);
    const text = listed.stdout.replace(/\n {4}(?! )/g, ' ');
    expect(text).toMatch(/^valid-license: a fresh, valid license key \(must be accepted; client API 1\.3 and 1\.2\)$/m);
    expect(text).toMatch(/^replayed-fresh: an earlier run's login, replayed while fresh \(informational; client API 1\.3 and 1\.2\)$/m);
    expect(text).toMatch(/^ {2}sandbox {3}The customer's license key is new and valid/m);
    const on12 = await audit(['--list', '--api', '1.2', '--json']);
    const ids = (JSON.parse(on12.stdout) as { id: string }[]).map((info) => info.id);
    expect(ids).toContain('emulated-secret');
    expect(ids).not.toContain('stale');
  });

  it('refuses a missing program, an unknown scenario, a bad pattern and a format it cannot print, with exit 2 and one sentence', { timeout: 90_000 }, async () => {
    const cases: [string[], string][] = [
      [[], 'error: Give the program to audit after --, e.g. kactl sandbox audit -- python3 app.py (or --list for the scenarios).\n'],
      [['--scenarios', 'forgd', '--', 'node', '-e', '0'], 'error: Unknown audit scenario "forgd" in scenarios: use some of '],
      [['--accepted-when', '(', '--', 'node', '-e', '0'], 'error: --accepted-when is not a regular expression: '],
      [['-o', 'csv', '--', 'node', '-e', '0'], 'error: kactl sandbox audit prints a table or JSON: use -o table or -o json.\n'],
      [['--scenarios', 'valid-license', '--', 'no-such-program-kactl-audit'], "error: no-such-program-kactl-audit: command not found (not a file, and not on the program's PATH).\n"],
    ];
    for (const [args, stderr] of cases) {
      const result = await audit(args, 60_000);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.startsWith(stderr), result.stderr).toBe(true);
      // One sentence, and at most the usage hint under it: no stack trace.
      expect(result.stderr.trim().split('\n').slice(1).filter((line) => line !== "Run 'kactl sandbox audit --help' for usage."), result.stderr).toEqual([]);
      expect(result.stdout).toBe('');
    }
  });
});

describe('kactl sandbox connect <sdk> --audit', () => {
  it('prints, without a sandbox, the lines that read the audit\'s variables, for every library', { timeout: 90_000 }, async () => {
    for (const sdk of ['python', 'csharp', 'cpp', 'php', 'go', 'react', 'java', 'node']) {
      const result = await runKactl(['sandbox', 'connect', sdk, '--audit', '--json'], { configDir: tempDir(), timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(0);
      const sheet = JSON.parse(result.stdout) as { sdk: string; api: string; command: string; code: { lines: string[] }[]; variables: string[] };
      expect(sheet.sdk).toBe(sdk);
      expect(sheet.command).toMatch(/^kactl sandbox audit /);
      expect(sheet.command.includes('--api 1.2')).toBe(sheet.api === '1.2');
      const code = sheet.code.flatMap((block) => block.lines).join('\n');
      for (const name of ['KEYAUTH_URL', 'KEYAUTH_NAME', 'KEYAUTH_OWNERID', 'KEYAUTH_VERSION', 'KEYAUTH_LICENSE']) expect(code, `${sdk} ${name}`).toContain(name);
      expect(sheet.variables).toContain('KACTL_AUDIT_SCENARIO');
    }
    const people = await runKactl(['sandbox', 'connect', 'python', '--audit'], { configDir: tempDir(), timeoutMs: 30_000 });
    expect(people.stdout).toContain('    in place of "https://keyauth.win/api/1.3/": os.environ["KEYAUTH_URL"]');
    expect(people.stdout).toContain('  Run: kactl sandbox audit -- python3 main.py');
  });
});

// The JUnit checks need xmllint; CI has it (.ci/run installs libxml2-utils), elsewhere they are skipped.
if (!hasXmllint() && process.env.CI) throw new Error('xmllint is missing: .ci/run installs libxml2-utils');
