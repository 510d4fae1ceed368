/**
 * Session rules with the real binary: one init per run (refused while the stored session is
 * live, `--new` replaces it, a session ended on the server does not block), and no command
 * waits for input when there is no terminal: stdin closed, exit 2, the flag named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-session-hwid-0000-0001';
const SLOW = 60_000;
let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});

describe('client session (e2e)', () => {
  it('refuses a second init while the session is live; --new replaces it; logout frees the way', async () => {
    const first = await sb.ok(['client', 'init']);
    expect(first.stderr).toContain('saved in profile sandbox');
    const refused = await sb.kactl(['client', 'init']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already open');
    const before = JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout).initialized;
    await sb.ok(['client', 'init', '--new']);
    const after = JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout).initialized;
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
    await sb.ok(['client', 'logout']);
    await sb.ok(['client', 'init']);
  }, SLOW);

  it('a session the seller ended does not block init', async () => {
    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['sessions', 'kill', '--all', '--yes']);
    const result = await sb.ok(['client', 'init']);
    expect(result.stderr).toContain('had ended');
  }, SLOW);

  it.each([
    [['client', 'register', '--username', 'x', '--key', 'K'], '--password'],
    [['client', 'register', '--username', 'x', '--key', 'K', '--password-stdin'], '--password-stdin'],
    [['client', 'login'], '--username'],
    [['client', 'license'], '--key'],
    [['client', 'upgrade', '--username', 'x'], '--key'],
    [['client', '2fa', 'disable'], '--code'],
    [['client', 'magic-link'], '--email'],
    [['client', 'email-code', 'verify', '--email', 'x@example.com'], '--code'],
    [['client', 'forgot', '--username', 'x'], '--email'],
    [['client', 'ban'], '--yes'],
    [['client', 'var', 'set', 'theme'], "'value'"],
  ])('kactl %j with stdin closed exits 2 at once naming %s', async (args, named) => {
    const result = await sb.kactl(args, { timeoutMs: 15_000 });
    expect(result.signal, 'killed: it waited for input').toBeNull();
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(named);
  });
});
