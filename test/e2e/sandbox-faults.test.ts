/**
 * `kactl sandbox fault` against a real sandbox, and the real `kactl client` facing each fault:
 * forged, stale, replayed and tampered answers are refused with exit 5 and one sentence naming
 * the check that failed; an HTML page, the bare text, another status, a reset, a cut body and
 * the rate-limit answer each get the exit code docs/contracts.md gives them.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-faults-hwid-0000-0001';
const PASSWORD = 'pw-e2e-faults-123456';
/** Many spawned kactl runs per test: room for a loaded two-core machine. */
const SLOW = 120_000;
let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
  const [key] = (await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30'])).stdout.split('\n').filter(Boolean);
  await sb.ok(['client', 'init']);
  await sb.ok(['client', 'register', '--username', 'alice', '--key', key!, '--password-stdin'], { input: PASSWORD });
}, SLOW);

beforeEach(async () => {
  await sb.ok(['sandbox', 'fault', 'clear', '--profile', 'sandbox']);
});

/** The error's sentence (after any retry warnings), without its `error: ` mark; no stack trace. */
function oneSentence(stderr: string): string {
  expect(stderr).not.toMatch(/\n\s+at /);
  const line = stderr.split('\n').find((candidate) => candidate.startsWith('error: '));
  expect(line, stderr).toBeDefined();
  return line!.slice('error: '.length);
}

describe('kactl sandbox fault', () => {
  it('adds, lists (with the fired count) and clears faults; wrong input is one sentence and exit 2', async () => {
    const added = await sb.json<{ id: number; kind: string }>(['sandbox', 'fault', 'add', '--type', 'check', '--times', '2', 'status', '503']);
    expect(added).toMatchObject({ kind: 'status' });
    const text = await sb.ok(['sandbox', 'fault', 'add', '--user', 'alice', 'delay', '1ms']);
    expect(text.stderr + text.stdout).toMatch(/Fault \d+ added: delay 1ms on user=alice\./);
    await sb.kactl(['client', 'check']);
    const listed = await sb.json<Array<{ id: number; kind: string; arg: string | null; types: string[] | null; fired: number }>>(['sandbox', 'fault', 'list']);
    expect(listed[0]).toMatchObject({ id: added.id, kind: 'status', arg: '503', types: ['check'] });
    expect(listed[0]!.fired).toBeGreaterThanOrEqual(1);
    const table = await sb.ok(['sandbox', 'fault', 'list']);
    expect(table.stdout).toMatch(/status\s+503\s+type=check times=2/);

    for (const args of [['add', 'explode'], ['add', 'delay'], ['add', 'status', 'abc'], ['add', '--times', '1', '--rate', '0.5', 'reset'], ['add', '--api', 'seller', 'replay'], ['clear', 'x']]) {
      const wrong = await sb.kactl(['sandbox', 'fault', ...args]);
      expect(wrong.code, args.join(' ')).toBe(2);
      expect(oneSentence(wrong.stderr)).toMatch(/\.$/);
    }
    const unknown = await sb.kactl(['sandbox', 'fault', 'clear', '999']);
    expect(unknown.code).toBe(2);
    expect(oneSentence(unknown.stderr)).toBe('No fault has id 999 in the sandbox.');
    expect(unknown.stderr).toContain('kactl sandbox fault list');
    expect(unknown.stderr).not.toContain('GET /sandbox/faults');

    // A misspelt type or kind is refused once, with the nearest name: a fault that never fires is a lie.
    const before = (await sb.json<unknown[]>(['sandbox', 'fault', 'list'])).length;
    const misspelt = await sb.kactl(['sandbox', 'fault', 'add', '--type', 'logn', 'forge-signature']);
    expect(misspelt.code).toBe(2);
    expect(oneSentence(misspelt.stderr)).toBe('--type "logn" is no client API type (did you mean login or log?), so the fault would never fire.');
    const kind = await sb.kactl(['sandbox', 'fault', 'add', 'forge-sig']);
    expect(kind.code).toBe(2);
    expect(oneSentence(kind.stderr)).toMatch(/^Unknown fault kind "forge-sig" \(did you mean forge-signature\?\): use one of forge-signature, /);
    expect(kind.stderr.match(/forge-sig"/g)).toHaveLength(1);
    expect(await sb.json<unknown[]>(['sandbox', 'fault', 'list'])).toHaveLength(before);

    const cleared = await sb.json<{ cleared: number }>(['sandbox', 'fault', 'clear', String(added.id)]);
    expect(cleared.cleared).toBe(1);
    await sb.ok(['sandbox', 'fault', 'clear']);
    expect(await sb.json(['sandbox', 'fault', 'list'])).toEqual([]);
  }, SLOW);

  it('marks faulted answers in kactl sandbox logs, as the client saw them', async () => {
    const { id } = await sb.json<{ id: number }>(['sandbox', 'fault', 'add', '--type', 'check', 'tamper']);
    await sb.kactl(['client', 'check']);
    const lines = await sb.ok(['sandbox', 'logs', '--type', 'check', '--limit', '1', '-o', 'table']);
    expect(lines.stdout).toContain(`[fault #${id} tamper]`);
    const records = (await sb.ok(['sandbox', 'logs', '--type', 'check', '--limit', '1', '-o', 'ndjson'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { fault: string | null });
    expect(records[0]!.fault).toBe(`#${id} tamper`);

    // A reset reached the client as no answer at all: the log says so, with the fault's id and kind.
    await sb.ok(['sandbox', 'fault', 'clear']);
    const reset = await sb.json<{ id: number }>(['sandbox', 'fault', 'add', '--type', 'check', '--times', '1', 'reset']);
    // check is a read: kactl tries it again after the dropped connection, and the second answer is genuine.
    await sb.kactl(['client', 'check']);
    const checks = await sb.json<Array<{ id: number; faultKind: string | null }>>(['sandbox', 'logs', '--type', 'check', '--limit', '5']);
    const record = checks.find((one) => one.faultKind === 'reset');
    expect(record).toMatchObject({ status: 0, delivery: 'reset', success: false, faultId: reset.id, faultKind: 'reset', failed: true });
    const line = (await sb.ok(['sandbox', 'logs', '--after', String(record!.id - 1), '--limit', '1', '-o', 'table'])).stdout;
    expect(line).toMatch(new RegExp(`✗ --- {2}1\\.3 check .*\\[fault #${reset.id} reset\\] the connection reset before any answer; the sandbox's own answer: `));
  }, SLOW);
});

describe('kactl client refuses forged, stale, replayed and tampered answers (exit 5)', () => {
  it.each([
    ['forge-signature', [], /^The answer's Ed25519 signature does not match its body\./],
    ['stale-timestamp', ['10m'], /^The answer's timestamp is 6\d\d s old; kactl accepts at most 60 s\./],
    ['tamper', [], /^The answer's Ed25519 signature does not match its body\./],
  ])('1.3 %s', async (kind, arg, said) => {
    await sb.ok(['sandbox', 'fault', 'add', '--type', 'check', kind, ...arg]);
    const run = await sb.kactl(['client', 'check']);
    expect(run.code, run.stderr).toBe(5);
    expect(oneSentence(run.stderr)).toMatch(said);
  }, SLOW);

  it('1.3 replay: an answer accepted before is refused when it comes again', async () => {
    // Held first: the sandbox remembers answers only while a replay fault is held.
    await sb.ok(['sandbox', 'fault', 'add', '--type', 'check', 'replay']);
    await sb.ok(['client', 'login', '--username', 'alice', '--password-stdin'], { input: PASSWORD });
    const run = await sb.kactl(['client', 'check']);
    expect(run.code, run.stderr).toBe(5);
    expect(oneSentence(run.stderr)).toBe('The answer is a replay: an answer with this exact signature was accepted before.');
    await sb.ok(['sandbox', 'fault', 'clear']);
    await sb.ok(['client', 'check']);
  }, SLOW);

  it.each([
    ['forge-signature', /^The answer's HMAC signature does not match \(checked with the session key \(enckey-secret\)\)\./],
    ['tamper', /^The answer's HMAC signature does not match/],
    ['replay', /^The answer is a replay: an answer with this exact signature was accepted before\./],
  ])('1.2 %s', async (kind, said) => {
    const { baseUrl, app } = sb.info;
    await sb.ok(['profile', 'add', 'v12', '--force', '--base-url', baseUrl, '--app-name', app.name, '--ownerid', app.ownerid, '--app-version', app.version, '--api', '1.2', '--secret', app.secret, '--hwid', HWID]);
    await sb.ok(['client', 'init', '--new', '--profile', 'v12']);
    const addFault = () => sb.ok(['sandbox', 'fault', 'add', '--profile', 'sandbox', '--api', '1.2', '--type', 'login', kind]);
    // A replay sends an answer sent while it was held: it is added before the login it replays.
    if (kind === 'replay') await addFault();
    await sb.ok(['client', 'login', '--profile', 'v12', '--username', 'alice', '--password-stdin'], { input: PASSWORD });
    if (kind !== 'replay') await addFault();
    const run = await sb.kactl(['client', 'login', '--profile', 'v12', '--username', 'alice', '--password-stdin'], { input: PASSWORD });
    expect(run.code, run.stderr).toBe(5);
    expect(oneSentence(run.stderr)).toMatch(said);
  }, SLOW);
});

describe('kactl client on broken answers', () => {
  it.each([
    ['html', [], 4, /answered 502 Bad Gateway/],
    ['text', [], 4, /KeyAuth_Invalid/],
    ['status', ['503'], 4, /503/],
    ['reset', [], 4, /./],
    ['truncate', [], 4, /./],
    ['rate-limit', ['2m'], 6, /[Rr]ate limited/],
  ])('%s → exit %s', async (kind, arg, code, said) => {
    await sb.ok(['sandbox', 'fault', 'add', '--type', 'check', kind, ...arg]);
    const run = await sb.kactl(['client', 'check']);
    expect(run.code, run.stderr).toBe(code);
    expect(oneSentence(run.stderr)).toMatch(said);
  }, SLOW);
});
