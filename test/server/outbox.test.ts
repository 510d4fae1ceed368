/** GET /sandbox/outbox: admin token required; lists what the sandbox would have mailed. */
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';
import { ok } from '../../src/server/dispatch/reply.js';
import { withSession } from '../../src/server/dispatch/session-guard.js';

describe('outbox', () => {
  it('refuses a missing or wrong token with 401', async () => {
    const sb = await startTestSandbox();
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${'0'.repeat(64)}` }, { authorization: sb.info.adminToken }, { authorization: `Basic ${sb.info.adminToken}` }];
    for (const headers of attempts) {
      const res = await sb.request('/sandbox/outbox', { headers });
      expect(res.status).toBe(401);
      expect(res.json.success).toBe(false);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await sb.request('/sandbox/outbox', { method: 'POST', headers: { authorization: `Bearer ${sb.info.adminToken}` } })).status).toBe(405);
  });

  it('lists messages handlers sent, oldest first, with filters', async () => {
    const mail = withSession((ctx, params) => {
      const to = params.get('email') ?? '';
      const id = ctx.outbox.send({ kind: 'magic-link', to, subject: 'Your login link', text: 'Open it', link: `${ctx.baseUrl}/magic?token=t${to.length}`, data: { token: `t${to.length}` } });
      return ok('sent', { id });
    });
    const sb = await startTestSandbox({ handlers: { client: { mail } } });
    expect(await sb.outbox()).toEqual([]);
    const sid = await sb.init();
    await sb.client('mail', { sessionid: sid, email: 'a@example.com' });
    await sb.client('mail', { sessionid: sid, email: 'bob@example.com' });
    const all = await sb.outbox();
    expect(all.map((m) => m.to)).toEqual(['a@example.com', 'bob@example.com']);
    expect(all[0]).toMatchObject({ kind: 'magic-link', subject: 'Your login link', text: 'Open it', link: `${sb.baseUrl}/magic?token=t13`, data: { token: 't13' } });
    expect(all[0]!.appId).toBe(sb.app().id);
    expect((await sb.outbox({ to: 'BOB@example.com' })).map((m) => m.to)).toEqual(['bob@example.com']);
    expect((await sb.outbox({ after: String(all[0]!.id) })).map((m) => m.to)).toEqual(['bob@example.com']);
    expect(await sb.outbox({ kind: 'email-code' })).toEqual([]);
  });
});
