/**
 * Both spellings where docs/protocol/seller-api.md records two: parameter names some official bots send, and
 * `activate`, whose success is always JSON while its failures honour `format=text`.
 */
import { describe, expect, it } from 'vitest';
import { expectEmptyList, expectOk, makeKey, makeUser, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

describe('recorded alternative spellings', () => {
  it('editsub takes the subscription as sub= or name=', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addsub', { name: 'premium', level: '2' });
    await sellerOk(sb, 'editsub', { name: 'premium', level: '3' });
    const subs = expectOk(await sb.seller('fetchallsubs')).subs as { name: string; level: string }[];
    expect(subs.find((s) => s.name === 'premium')?.level).toBe('3');
    await sellerOk(sb, 'editsub', { sub: 'premium', level: '4' });
    expect((expectOk(await sb.seller('fetchallsubs')).subs as { name: string; level: string }[]).find((s) => s.name === 'premium')?.level).toBe('4');
  });

  it('massUserVarDelete takes the variable as name= or var=', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'a', data: '1' });
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'b', data: '2' });
    await sellerOk(sb, 'massUserVarDelete', { var: 'a' });
    await sellerOk(sb, 'massUserVarDelete', { name: 'b' });
    expectEmptyList(await sb.seller('fetchalluservars'), 'No user variables Found');
  });

  it('addwebhook takes the user agent as ua= or us=', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addwebhook', { baseurl: 'http://127.0.0.1:9/a', authed: '0', webid: 'one', us: 'AgentOne' });
    await sellerOk(sb, 'addwebhook', { baseurl: 'http://127.0.0.1:9/b', authed: '0', webid: 'two', ua: 'AgentTwo' });
    const hooks = expectOk(await sb.seller('fetchallwebhooks')).webhooks as { webid: string; useragent: string }[];
    expect(Object.fromEntries(hooks.map((h) => [h.webid, h.useragent]))).toEqual({ one: 'AgentOne', two: 'AgentTwo' });
  });
});

describe('activate with format=text', () => {
  it('answers a failure as plain text and a success as JSON', async () => {
    const sb = await startSellerSandbox();
    const failed = await sb.seller('activate', { key: 'NO-SUCH-KEY', user: 'alice', pass: 'pw', format: 'text' });
    expect(failed.json).toBeUndefined();
    expect(failed.text).toBe('Key Not Found.');
    const key = await makeKey(sb);
    const ok = await sb.seller('activate', { key, user: 'alice', pass: 'pw', format: 'text' });
    expect(expectOk(ok).info).toMatchObject({ username: 'alice' });
  });
});
