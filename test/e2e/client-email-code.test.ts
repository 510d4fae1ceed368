/** Email one-time codes end to end: send, read the code from the sandbox's outbox, verify. */
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-code-hwid-0000-0000-0001';
let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});

describe('client email code (e2e)', () => {
  it('sends a code, refuses a wrong one, logs in with the right one', async () => {
    const [key] = (await sb.ok(['licenses', 'create', '--expiry', '30'])).stdout.split('\n').filter(Boolean);
    await sb.ok(['client', 'init']);
    await sb.ok(['client', 'register', '--username', 'erin', '--key', key!, '--email', 'erin@example.com', '--password-stdin'], { input: 'pw-e2e-123456' });
    await sb.ok(['client', 'init', '--new']);

    const sent = await sb.ok(['client', 'email-code', 'send', '--email', 'erin@example.com']);
    expect(sent.stderr).toContain('Email code sent');
    const mail = (await sb.outbox()).filter((m) => m.to === 'erin@example.com' && m.kind === 'email-code').at(-1);
    const code = /\b(\d{6})\b/.exec(mail?.subject ?? mail?.text ?? '')?.[1];
    expect(code, JSON.stringify(mail)).toBeDefined();

    const wrong = await sb.kactl(['client', 'email-code', 'verify', '--email', 'erin@example.com', '--code', code === '000000' ? '111111' : '000000']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Invalid email code');

    const verified = await sb.ok(['client', 'email-code', 'verify', '--email', 'erin@example.com', '--code', code!, '--json']);
    expect(JSON.parse(verified.stdout)).toMatchObject({ success: true, info: { username: 'erin' } });
    expect(JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout)).toMatchObject({ user: 'erin', validated: true });

    const reused = await sb.kactl(['client', 'email-code', 'verify', '--email', 'erin@example.com', '--code', code!]);
    expect(reused.code).toBe(1);
  }, 60_000);
});
