import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import { fail, ok } from '../../../src/server/dispatch/reply.js';
import type { Handler } from '../../../src/server/dispatch/types.js';
import { clientRig, RIG_PROFILE } from './rig.js';

const pending = () => fail('Magic link not approved yet', { status: 'pending' });
const sent: Handler = () => ok('Magic link sent');

function approvedAfter(polls: number): Handler {
  let seen = 0;
  return (ctx) => {
    seen += 1;
    if (seen <= polls) return pending();
    const now = String(ctx.now);
    return ok('Logged in!', { info: { username: 'alice', subscriptions: [{ subscription: 'default', key: null, expiry: String(ctx.now + 86_400), timeleft: 86_400, level: '1' }], ip: '127.0.0.1', hwid: null, createdate: now, lastlogin: now } });
  };
}

describe('kactl client magic-link', () => {
  it('sends, polls until approved, then shows the user and keeps the session as theirs', async () => {
    const rig = await clientRig({ handlers: { magicLinkSend: sent, magicLinkCheck: approvedAfter(2) } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', '--email', 'alice@example.com']);
    expect(result.code, result.stderr).toBe(0);
    expect(rig.callsOf('magicLinkSend')[0]!.params).toMatchObject({ email: 'alice@example.com', hwid: expect.any(String) });
    expect(rig.callsOf('magicLinkCheck')).toHaveLength(3);
    expect(result.stderr).toContain('Waiting up to 15:00');
    expect(result.stdout).toMatch(/^username\talice$/m);
    expect(rig.session()).toMatchObject({ user: 'alice', validated: true });
  });

  it('shows a spinner with a countdown on a terminal', async () => {
    const rig = await clientRig({ handlers: { magicLinkCheck: approvedAfter(1) } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', 'wait', '--wait-timeout', '2m'], { stderrTTY: true, stdoutTTY: true });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Waiting for the link to be approved… [12]:\d\d left \(Ctrl-C to stop\)/);
    expect(result.stderr).toContain('\r\u001b[2K');
  });

  it('exits 1 when the link expires', async () => {
    const rig = await clientRig({ handlers: { magicLinkCheck: () => fail('Magic link expired', { status: 'expired' }) } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', 'wait']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Magic link expired');
  });

  it('exits 1 when its own --wait-timeout runs out first, saying how to resume', async () => {
    const rig = await clientRig({ handlers: { magicLinkCheck: pending } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', 'wait', '--wait-timeout', '1s']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not approved within 0:01');
    expect(result.stderr).toContain('kactl client magic-link wait');
  });

  it('exits 6 when rate limited', async () => {
    const limited: Handler = () => ({ ...fail('This application has sent too many requests. Try again in a minute.'), status: 429, headers: { 'retry-after': '120' } });
    const rig = await clientRig({ handlers: { magicLinkCheck: limited } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', 'wait']);
    expect(result.code, result.stderr).toBe(6);
  });

  it('exits 130 on Ctrl-C while waiting', async () => {
    const controller = new AbortController();
    const rig = await clientRig({
      handlers: {
        magicLinkCheck: () => {
          controller.abort();
          return pending();
        },
      },
    });
    await rig.run(['client', 'init']);
    const stdin = new PassThrough();
    stdin.end();
    const sink = () => Object.assign(new PassThrough(), { isTTY: false });
    const stderr = sink();
    const said: Buffer[] = [];
    stderr.on('data', (chunk: Buffer) => said.push(chunk));
    const code = await main(['client', 'magic-link', 'wait'], { stdin, stdout: sink(), stderr, env: { KACTL_CONFIG_DIR: rig.configDir, NO_COLOR: '1' }, signal: controller.signal });
    expect(code).toBe(130);
    // The same resume hint a timeout prints (it used to say only "Interrupted.").
    expect(Buffer.concat(said).toString('utf8')).toContain('To wait again on the same session: kactl client magic-link wait');
  });

  it('--no-wait prints JSON with the command that resumes on the same profile', async () => {
    const rig = await clientRig({ handlers: { magicLinkSend: sent } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', '--email', 'alice@example.com', '--no-wait', '--wait-timeout', '5m', '--profile', RIG_PROFILE]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      sent: true,
      email: 'alice@example.com',
      message: 'Magic link sent',
      next_step: `kactl client magic-link wait --profile ${RIG_PROFILE} --wait-timeout 300s`,
    });
    expect(rig.callsOf('magicLinkCheck')).toHaveLength(0);
  });

  it('its --wait-timeout is the wait, not the request timeout', async () => {
    const rig = await clientRig({ handlers: { magicLinkCheck: approvedAfter(0) } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'magic-link', 'wait', '--wait-timeout', '1ms']);
    // A 1 ms request timeout would have failed the call (exit 4); a 1 ms wait still checks once.
    expect(result.code, result.stderr).toBe(0);
  });

  it('sends the 2FA code with the check; without one and without a terminal it says to add --code', async () => {
    const needsCode: Handler = (_ctx, params) => (params.get('code') === '123456' ? approvedAfter(0)(_ctx, params) : fail('2FA code required.'));
    const rig = await clientRig({ handlers: { magicLinkCheck: needsCode } });
    await rig.run(['client', 'init']);
    const without = await rig.run(['client', 'magic-link', 'wait']);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('add --code');
    const withCode = await rig.run(['client', 'magic-link', 'wait', '--code', '123456']);
    expect(withCode.code, withCode.stderr).toBe(0);
  });
});
