/**
 * Magic links end to end: the real kactl waits while the test opens the link from the
 * sandbox's outbox and submits the approval page's form, as a user's browser would; an expired
 * link (the sandbox clock moved past 15 minutes) ends the wait with exit 1; `--no-wait` hands a
 * script the command that resumes the wait.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-magic-hwid-0000-0000-0001';
const PASSWORD = 'pw-e2e-123456';
const SLOW = 60_000;
let sb: E2ESandbox;

/** A user with an email address, and a fresh session that is not logged in. */
async function userWithEmail(username: string): Promise<string> {
  const email = `${username}@example.com`;
  const [key] = (await sb.ok(['licenses', 'create', '--expiry', '30'])).stdout.split('\n').filter(Boolean);
  await sb.ok(['client', 'init', '--new']);
  await sb.ok(['client', 'register', '--username', username, '--key', key!, '--email', email, '--password-stdin'], { input: PASSWORD });
  await sb.ok(['client', 'init', '--new']);
  return email;
}

/** The newest magic link mailed to `email`, once it is in the outbox. */
async function linkFor(email: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const found = (await sb.outbox()).filter((m) => m.to === email && m.kind === 'magic-link' && typeof m.link === 'string');
    if (found.length > 0) return found.at(-1)!.link!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no magic link for ${email} in the outbox`);
}

/** Opens the approval page and submits its form with the approve button, as a browser would. */
async function approve(link: string): Promise<void> {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  expect(form, html).not.toBeNull();
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tag)?.[1];
  const formTag = /<form\b[^>]*>/i.exec(form![0])![0];
  const fields = new URLSearchParams();
  for (const input of form![1]!.match(/<input\b[^>]*>/gi) ?? []) {
    const name = attribute(input, 'name');
    if (name !== undefined && attribute(input, 'type') !== 'submit') fields.append(name, attribute(input, 'value') ?? '');
  }
  const approveButton = (form![1]!.match(/<button\b[^>]*>[\s\S]*?<\/button>/gi) ?? []).find((b) => /approve/i.test(b));
  expect(approveButton, html).toBeDefined();
  fields.append(attribute(approveButton!, 'name')!, attribute(approveButton!, 'value') ?? '');
  const target = new URL(attribute(formTag, 'action') ?? link, link);
  const answer = await fetch(target, { method: (attribute(formTag, 'method') ?? 'GET').toUpperCase(), body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(answer.status, await answer.clone().text()).toBe(200);
  expect(await answer.text()).toMatch(/approved/i);
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
});

describe('client magic link (e2e)', () => {
  it('waits, and logs in once the link is approved on the sandbox page', async () => {
    const email = await userWithEmail('mallory');
    const waiting = sb.kactl(['client', 'magic-link', '--email', email, '--wait-timeout', '45s'], { timeoutMs: 50_000 });
    await approve(await linkFor(email));
    const result = await waiting;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Magic link sent');
    expect(result.stdout).toMatch(/^username\tmallory$/m);
    expect(JSON.parse((await sb.ok(['client', 'whoami', '--json'])).stdout)).toMatchObject({ user: 'mallory', validated: true });
    expect((await sb.kactl(['client', 'check'])).code).toBe(0);
  }, SLOW);

  it('--no-wait prints the next step; running it resumes the wait on the same session', async () => {
    const email = await userWithEmail('oscar');
    const sent = JSON.parse((await sb.ok(['client', 'magic-link', '--email', email, '--no-wait', '--wait-timeout', '40s'])).stdout);
    expect(sent).toMatchObject({ sent: true, email, next_step: 'kactl client magic-link wait --wait-timeout 40s' });
    const [, , ...args] = (sent.next_step as string).split(' ');
    expect(args.slice(0, 2)).toEqual(['magic-link', 'wait']);
    const waiting = sb.kactl(['client', ...args], { timeoutMs: 50_000 });
    await approve(await linkFor(email));
    const result = await waiting;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^username\toscar$/m);
  }, SLOW);

  it('exits 1 when the link has expired', async () => {
    const email = await userWithEmail('trent');
    await sb.ok(['client', 'magic-link', '--email', email, '--no-wait']);
    await sb.ok(['sandbox', 'advance', '16m']);
    const result = await sb.kactl(['client', 'magic-link', 'wait', '--wait-timeout', '30s']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('Magic link expired');
    expect((await sb.kactl(['client', 'check'])).code).toBe(3);
  }, SLOW);
});
