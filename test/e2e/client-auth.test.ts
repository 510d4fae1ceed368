/**
 * The real kactl against a real sandbox: register, both logins, license (first use and later),
 * upgrade (and that it logs no one in), and 2FA on and off with codes computed here, as an
 * authenticator app would.
 */
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-auth-hwid-0000-0000-0001';
const PASSWORD = 'pw-e2e-123456';
/** Many spawned kactl runs per test: room for a loaded two-core machine. */
const SLOW = 60_000;
let sb: E2ESandbox;

async function newKeys(amount: number): Promise<string[]> {
  const { stdout } = await sb.ok(['licenses', 'create', '--amount', String(amount), '--expiry', '30']);
  return stdout.split('\n').filter(Boolean);
}

function totpNow(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});

describe('client auth flows (e2e)', () => {
  it('registers with a key, then logs in by username and by email', async () => {
    const [key] = await newKeys(1);
    await sb.ok(['client', 'init']);
    const reg = await sb.ok(['client', 'register', '--username', 'alice', '--key', key!, '--email', 'alice@example.com', '--password-stdin'], { input: PASSWORD });
    expect(reg.stdout).toMatch(/^username\talice$/m);
    expect(reg.stdout).toMatch(/^hwid\te2e-auth-hwid-0000-0000-0001$/m);

    await sb.ok(['client', 'init', '--new']);
    expect((await sb.kactl(['client', 'check'])).code).toBe(3);
    const byName = await sb.ok(['client', 'login', '--username', 'alice', '--password-stdin', '--json'], { input: PASSWORD });
    expect(JSON.parse(byName.stdout)).toMatchObject({ success: true, message: 'Logged in!', info: { username: 'alice' } });
    expect((await sb.kactl(['client', 'check'])).code).toBe(0);

    await sb.ok(['client', 'init', '--new']);
    const byEmail = await sb.ok(['client', 'login', '--email', 'alice@example.com', '--password-stdin', '--json'], { input: PASSWORD });
    expect(JSON.parse(byEmail.stdout).info.username).toBe('alice');
    const who = JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout);
    expect(who).toMatchObject({ user: 'alice', validated: true, session: '***' });

    const wrong = await sb.kactl(['client', 'login', '--username', 'alice', '--password-stdin'], { input: 'not-it' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Password does not match.');
  }, SLOW);

  it('license: the first use registers the key as a user, a later use logs it in', async () => {
    const [key] = await newKeys(1);
    await sb.ok(['client', 'init', '--new']);
    const first = JSON.parse((await sb.ok(['client', 'license', '--key', key!, '--json'])).stdout);
    expect(first.info.username).toBe(key);
    await sb.ok(['client', 'logout']);
    await sb.ok(['client', 'init']);
    const later = JSON.parse((await sb.ok(['client', 'license', '--key', key!, '--json'])).stdout);
    expect(later).toMatchObject({ success: true, info: { username: key } });
    const users = await sb.ok(['users', 'list', '--json']);
    expect((JSON.parse(users.stdout) as { username: string }[]).filter((u) => u.username === key)).toHaveLength(1);
  }, SLOW);

  it('upgrade adds the key\'s subscription time and logs no one in', async () => {
    const [first, second] = await newKeys(2);
    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['client', 'register', '--username', 'bob', '--key', first!, '--password-stdin'], { input: PASSWORD });
    await sb.ok(['client', 'logout']);
    await sb.ok(['client', 'init']);
    const upgraded = await sb.ok(['client', 'upgrade', '--username', 'bob', '--key', second!]);
    expect(upgraded.stderr).toContain('Upgraded successfully');
    expect(upgraded.stderr).toContain('logs no one in');
    // The session is still not logged in: check says so (exit 3), whoami too.
    expect((await sb.kactl(['client', 'check'])).code).toBe(3);
    expect(JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout)).toMatchObject({ user: null, validated: false });
    const login = JSON.parse((await sb.ok(['client', 'login', '--username', 'bob', '--password-stdin', '--json'], { input: PASSWORD })).stdout);
    const expiry = Number(login.info.subscriptions[0].expiry);
    // Two 30-day keys: about 60 days left.
    expect(expiry - Date.now() / 1000).toBeGreaterThan(59 * 86_400);
  }, SLOW);

  it('2FA: enable with a computed code, a login needs the code, disable with a code', async () => {
    const [key] = await newKeys(1);
    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['client', 'register', '--username', 'carol', '--key', key!, '--password-stdin'], { input: PASSWORD });

    const first = await sb.ok(['client', '2fa', 'enable']);
    const secret = /^secret\t([A-Z2-7]+)$/m.exec(first.stdout)?.[1];
    expect(secret, first.stdout).toBeDefined();
    expect(first.stdout).toContain(`otpauth://totp/carol?secret=${secret}&issuer=KeyAuth`);
    const enabled = await sb.ok(['client', '2fa', 'enable', '--code', totpNow(secret!)]);
    expect(enabled.stderr).toContain('Two-factor authentication is on');

    await sb.ok(['client', 'init', '--new']);
    const without = await sb.kactl(['client', 'login', '--username', 'carol', '--password-stdin'], { input: PASSWORD });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('2FA code required.');
    expect(without.stderr).toContain('--code');
    await sb.ok(['client', 'login', '--username', 'carol', '--password-stdin', '--code', totpNow(secret!)], { input: PASSWORD });

    const disabled = await sb.ok(['client', '2fa', 'disable', '--code', totpNow(secret!)]);
    expect(disabled.stderr).toContain('Two-factor authentication is off');
    await sb.ok(['client', 'init', '--new']);
    await sb.ok(['client', 'login', '--username', 'carol', '--password-stdin'], { input: PASSWORD });
  }, SLOW);
});
