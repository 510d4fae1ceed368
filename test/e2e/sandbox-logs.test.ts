/**
 * `kactl sandbox logs` against a real sandbox: each refusal a tester meets most shows the reason
 * the deciding rule gave, as lines, NDJSON and JSON; --follow streams a new request, ends with
 * exit 130 at Ctrl-C without a word, and with 0 when the sandbox stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';

const HWID = 'e2e-logs-hwid-aaaa-0000-0001';
const OTHER_HWID = 'e2e-logs-hwid-bbbb-0000-0002';
const PASSWORD = 'pw-e2e-logs-123456';
/** Many spawned kactl runs per test: room for a loaded two-core machine. */
const SLOW = 120_000;
let sb: E2ESandbox;
const followers: ChildProcess[] = [];

interface Logged {
  type: string | null;
  user: string | null;
  success: boolean | null;
  status: number;
  reason: string | null;
  params: Record<string, string>;
}

function totpNow(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});
afterAll(() => {
  for (const child of followers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `kactl sandbox logs …` with a long-lived stdout read line by line. */
function follow(args: readonly string[]): { child: ChildProcess; lines: string[]; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [KACTL_BIN, 'sandbox', 'logs', '--follow', ...args], { env: cleanEnv(sb.configDir), stdio: ['ignore', 'pipe', 'pipe'] });
  followers.push(child);
  const lines: string[] = [];
  const err: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => err.join(''), exited };
}

/** Sends `check` requests (no session: refused) until the follower has printed `count` lines (it may not be connected at first). */
async function untilPrinted(lines: string[], count: number, stderr: () => string): Promise<void> {
  const { name, ownerid } = sb.info.app;
  for (let tries = 0; lines.length < count; tries += 1) {
    if (tries > 100) throw new Error(`the follower printed nothing; it said: ${stderr()}`);
    await fetch(`${sb.info.baseUrl}/api/1.3/?${new URLSearchParams({ type: 'check', name, ownerid }).toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('kactl sandbox logs (e2e)', () => {
  it('shows why a wrong password, a HWID mismatch, an old version, a used license, a missing 2FA code and an expired session were refused', async () => {
    const key = (await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30'])).stdout.trim();
    await sb.ok(['client', 'init']);
    await sb.ok(['client', 'register', '--username', 'alice', '--key', key, '--password-stdin'], { input: PASSWORD });

    await sb.ok(['client', 'init', '--new']);
    expect((await sb.kactl(['client', 'login', '--username', 'alice', '--password-stdin'], { input: 'not-the-password' })).code).toBe(1);
    expect((await sb.kactl(['client', 'login', '--username', 'alice', '--password-stdin', '--hwid', OTHER_HWID], { input: PASSWORD })).code).toBe(1);
    expect((await sb.kactl(['client', 'init', '--new', '--app-version', '0.9'])).code).not.toBe(0);
    await sb.ok(['client', 'init', '--new']);
    expect((await sb.kactl(['client', 'register', '--username', 'bob', '--key', key, '--password-stdin'], { input: PASSWORD })).code).toBe(1);

    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['client', 'login', '--username', 'alice', '--password-stdin'], { input: PASSWORD });
    const secret = /^secret\t([A-Z2-7]+)$/m.exec((await sb.ok(['client', '2fa', 'enable'])).stdout)?.[1];
    await sb.ok(['client', '2fa', 'enable', '--code', totpNow(secret!)]);
    await sb.ok(['client', 'init', '--new']);
    expect((await sb.kactl(['client', 'login', '--username', 'alice', '--password-stdin'], { input: PASSWORD })).code).toBe(1);

    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['sandbox', 'advance', '7d']);
    expect((await sb.kactl(['client', 'call', 'check'])).code).not.toBe(0);
    await sb.ok(['sandbox', 'clock', '--reset']);

    const failed = JSON.parse((await sb.ok(['sandbox', 'logs', '--failed', '-o', 'json'])).stdout) as Logged[];
    const reasons = failed.map((record) => record.reason);
    expect(reasons).toContain('wrong password for alice');
    expect(reasons).toContain('HWID mismatch: alice is locked to e2e-logs-hwid-a…, the request sent e2e-logs-hwid-b…');
    expect(reasons).toContain('app version is 1.0, the client sent 0.9 (the app has no download link to give)');
    expect(reasons).toContain('license already used by alice');
    expect(reasons).toContain('2FA is on for alice and no code was sent');
    expect(reasons.some((reason) => /^session \w\w… expired \d+ days? ago \(sandbox clock is 7 days ahead\)$/.test(reason ?? ''))).toBe(true);
    expect(failed.every((record) => record.success === false || record.status >= 400)).toBe(true);

    // Piped, with no format: NDJSON, one record a line; the filters reach the sandbox.
    const piped = await sb.ok(['sandbox', 'logs', '--type', 'login', '--user', 'alice']);
    const logins = piped.stdout.trim().split('\n').map((line) => JSON.parse(line) as Logged);
    expect(logins.map((record) => record.type)).toEqual(['login', 'login', 'login', 'login']);
    expect(logins.every((record) => record.params.pass === '***')).toBe(true);
    // -o table: one line each, for people (no colour here: NO_COLOR).
    const lines = (await sb.ok(['sandbox', 'logs', '--type', 'login', '--failed', '--limit', '1', '-o', 'table'])).stdout;
    expect(lines).toMatch(/^\d\d:\d\d:\d\d {2}✗ 200 {2}1\.3 login {12}alice {8}2FA is on for alice and no code was sent\n$/);
  }, SLOW);

  it("--failed leaves out an empty list and kactl's own check of a stored session; the lines mark both", async () => {
    const since = new Date().toISOString();
    // client init asks whether the stored session still lives: an ended one is refused, on kactl's account.
    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['sandbox', 'advance', '7d']);
    await sb.ok(['client', 'init']);
    await sb.ok(['sandbox', 'clock', '--reset']);
    // No webhooks: the seller API answers the empty list 406 and success:false.
    await sb.ok(['webhooks', 'list']);
    const all = JSON.parse((await sb.ok(['sandbox', 'logs', '--since', since, '-o', 'json'])).stdout) as Array<Logged & { probe: boolean; empty: boolean; failed: boolean }>;
    const probe = all.find((record) => record.probe);
    expect(probe).toMatchObject({ type: 'check', success: false, failed: false });
    expect(all.find((record) => record.type === 'fetchallwebhooks')).toMatchObject({ status: 406, success: false, empty: true, failed: false });
    const failed = JSON.parse((await sb.ok(['sandbox', 'logs', '--since', since, '--failed', '-o', 'json'])).stdout) as Logged[];
    expect(failed.map((record) => record.type)).not.toContain('fetchallwebhooks');
    expect(failed.map((record) => record.type)).not.toContain('check');
    const lines = (await sb.ok(['sandbox', 'logs', '--since', since, '-o', 'table'])).stdout;
    expect(lines).toMatch(/ · 200 {2}1\.3 check .*\(kactl's own check\)/);
    expect(lines).toMatch(/ · 406 {2}seller fetchallwebhooks .*\(an empty list\)/);
  }, SLOW);

  it('refuses a wrong filter and a wrong admin token in one sentence', async () => {
    const api = await sb.kactl(['sandbox', 'logs', '--api', 'graphql']);
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('Give APIs among 1.3, 1.2, seller, page, admin, other');
    const since = await sb.kactl(['sandbox', 'logs', '--since', 'yesterday']);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since takes a time ago such as 30s, 10m, 2h, 1d');
    const token = await sb.kactl(['sandbox', 'logs', '--admin-token-stdin'], { input: 'wrong' });
    expect(token.code).toBe(3);
    expect(token.stderr).toContain('The sandbox refused the admin token.');
    expect((await sb.kactl(['sandbox', 'logs', '--follow'], { env: { KACTL_ADMIN_TOKEN: 'wrong' } })).code).toBe(3);
    expect((await sb.kactl(['sandbox', 'logs', '-o', 'csv'])).code).toBe(2);
  }, SLOW);

  it('--follow streams each new request as NDJSON and ends quietly with 130 at Ctrl-C', async () => {
    const follower = follow(['--type', 'check']);
    await untilPrinted(follower.lines, 1, follower.stderr);
    const record = JSON.parse(follower.lines[0]!) as Logged;
    expect(record).toMatchObject({ type: 'check', success: false });
    follower.child.kill('SIGINT');
    expect(await follower.exited).toBe(130);
    expect(follower.stderr()).toBe('');
  }, SLOW);

  it('--follow ends with 0 when the sandbox stops, and the sandbox stops without waiting for it', async () => {
    const follower = follow([]);
    await untilPrinted(follower.lines, 1, follower.stderr);
    const stopped = await sb.stop();
    expect(stopped.code).toBe(0);
    expect(await follower.exited).toBe(0);
    expect(follower.stderr()).toContain('The sandbox ended the stream: the sandbox is stopping.');
  }, SLOW);
});
