/**
 * The 2FA walkthrough in a real pseudo-terminal: the QR code is drawn, the secret shown, a wrong
 * code is refused and asked for again, the right one (computed here, as the authenticator app
 * would) turns 2FA on, and the result says so. A login without a code then fails.
 */
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { spawnKactlInPty, type PtyRun } from '../helpers/pty.js';

const PASSWORD = 'pw-pty-123456';
let running: PtyRun | undefined;

afterEach(() => {
  running?.kill();
  running = undefined;
});

async function loggedInUser(sb: E2ESandbox): Promise<void> {
  const run = async (args: string[], input?: string) => {
    const result = await sb.kactl(args, input === undefined ? {} : { input });
    expect(result.code, `kactl ${args.join(' ')}\n${result.stderr}`).toBe(0);
    return result;
  };
  await run(['profile', 'add', 'sandbox', '--hwid', 'pty-hwid-0000-0000-0000-01']);
  const [key] = (await run(['licenses', 'create', '--expiry', '30'])).stdout.split('\n').filter(Boolean);
  await run(['client', 'init']);
  await run(['client', 'register', '--username', 'peggy', '--key', key!, '--password-stdin'], PASSWORD);
}

function totp(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** A 6-digit code no step near now accepts. */
function wrongCode(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totp(secret).generate({ timestamp: Date.now() + offset })));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

describe('2FA walkthrough in a terminal (pty)', () => {
  it('draws the QR code, takes the typed code, and shows the result', async () => {
    const sb = await startE2ESandbox();
    await loggedInUser(sb);
    const pty = spawnKactlInPty(['client', '2fa', 'enable'], { configDir: sb.configDir });
    running = pty;

    const shown = await pty.waitFor(/Or type the secret in by hand: ([A-Z2-7]{40})/);
    const secret = /Or type the secret in by hand: ([A-Z2-7]{40})/.exec(shown)![1]!;
    // The QR code: a block of equally long lines of half blocks, above the secret.
    const qrLines = shown.split('\n').filter((line) => /^[ ▀▄█]{20,}$/.test(line.trimEnd()));
    expect(qrLines.length).toBeGreaterThan(10);
    expect(shown.indexOf('Scan this QR code')).toBeLessThan(shown.indexOf(qrLines[0]!));

    await pty.waitFor('Code the app shows');
    pty.type(`${wrongCode(secret)}\r`);
    await pty.waitFor(/Invalid code please try again \(try 1 of 3\)/);
    pty.type(`${totp(secret).generate()}\r`);
    const result = await pty.waitFor('Two-factor authentication is on');
    expect(result).toContain('Logins now need --code');
    expect(await pty.exited).toBe(0);

    const login = await sb.kactl(['client', 'login', '--username', 'peggy', '--password-stdin'], { input: PASSWORD });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('2FA code required.');
  }, 60_000);
});
