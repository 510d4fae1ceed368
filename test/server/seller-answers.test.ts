/**
 * Seller answers as a whole: no secret in any read answer, `format=text` only where the catalog
 * says, the failure status option, and faults as 500 without details.
 */
import { describe, expect, it } from 'vitest';
import { SELLER_CATALOG } from '../../src/api/seller-catalog/index.js';
import { findAppAccount } from '../../src/server/domain/accounts.js';
import { findUser, hashEmail } from '../../src/server/domain/users.js';
import { expectFail, expectOk, loginSession, makeKey, makeUser, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

describe('no secrets in answers', () => {
  it('no read operation answers a password hash, 2FA secret, email hash or (but appdetails) the app secret', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw', hwid: 'HWID-0000000000000000001' });
    await makeUser(sb, 'bob');
    await sellerOk(sb, 'editemail', { user: 'alice', email: 'alice@example.com' });
    await loginSession(sb, 'alice');
    sb.store.run("UPDATE users SET twofaSecret = 'JBSWY3DPEHPK3PXP', twofaEnabled = 1 WHERE username = 'alice'");
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'v', data: 'x' });
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'hi', authed: '1' });
    await sellerOk(sb, 'addwebhook', { baseurl: 'http://127.0.0.1:9/hook?token=webhook-secret-123', authed: '1', webid: 'w' });
    await sellerOk(sb, 'addAccount', { role: 'Reseller', user: 'shop1', pass: 'reseller-pw', email: 'shop1@example.com' });

    const secrets = [
      findUser(sb.store, sb.app().id, 'alice')!.passwordHash!,
      findUser(sb.store, sb.app().id, 'bob')!.passwordHash!,
      findAppAccount(sb.store, sb.app().id, 'shop1')!.passwordHash!,
      'JBSWY3DPEHPK3PXP',
      hashEmail('alice@example.com'),
      hashEmail('shop1@example.com'),
      'webhook-secret-123',
    ];
    const args: Record<string, Record<string, string>> = {
      info: { key }, fetchnote: { key }, userdata: { user: 'alice' }, getkey: { user: 'alice' }, usersub: { user: 'alice' },
      getvar: { user: 'alice', var: 'v' }, retrvvar: { name: 'motd' }, countsubs: { name: 'default' },
      getbalance: { username: 'shop1', appname: sb.info.app.name }, verify: { key }, verifyuser: { user: 'alice' }, fetchfile: { id: '000000' },
    };
    const reads = [...new Set(SELLER_CATALOG.filter((op) => op.effect === 'read').map((op) => op.type))];
    expect(reads.length).toBeGreaterThan(30);
    for (const type of reads) {
      const res = await sb.seller(type, args[type] ?? {});
      for (const secret of secrets) expect(res.text, `${type} leaks a secret`).not.toContain(secret);
      if (type !== 'appdetails') expect(res.text, `${type} leaks the app secret`).not.toContain(sb.info.app.secret);
    }
  });
});

describe('format=text', () => {
  it('lists and lookups stay JSON, successes and failures alike (E prints them as JSON)', async () => {
    const sb = await startSellerSandbox();
    const empty = await sb.seller('fetchallkeys', { format: 'text' });
    expect([empty.status, empty.headers.get('content-type')]).toEqual([406, 'application/json; charset=utf-8']);
    expect(empty.json).toEqual({ success: false, message: 'No keys found' });
    await makeKey(sb);
    expectOk(await sb.seller('fetchallkeys', { format: 'text' }), 'Successfully Retrieved Licenses');
    expect((await sb.seller('info', { key: 'NOPE', format: 'text' })).json).toEqual({ success: false, message: 'Key Not Found' });
    expect((await sb.seller('appdetails', { format: 'text' })).json.success).toBe(true);
  });

  it('message-only operations answer their sentence as text; anything but exactly "text" means JSON', async () => {
    const sb = await startSellerSandbox();
    const res = await sb.seller('addWhite', { ip: '198.51.100.1', format: 'text' });
    expect([res.status, res.headers.get('content-type'), res.text]).toEqual([200, 'text/plain; charset=utf-8', 'Successfully added whitelist!']);
    const refused = await sb.seller('addWhite', { ip: '198.51.100.1', format: 'text' });
    expect([refused.status, refused.text]).toEqual([200, 'Failed to add whitelist!']);
    const missing = await sb.seller('addWhite', { format: 'text' });
    expect([missing.status, missing.text]).toEqual([200, 'Missing parameter: ip']);
    expectFail(await sb.seller('addWhite', { ip: '198.51.100.1', format: 'TEXT' }), 'Failed to add whitelist!');
  });
});

describe('global checks', () => {
  it('refuses a seller key whose owner account is not on the seller role, and a banned app', async () => {
    const sb = await startSellerSandbox();
    sb.store.run("UPDATE accounts SET role = 'tester' WHERE username = ?", sb.app().owner);
    expectFail(await sb.seller('appdetails'), 'Not authorized to use SellerAPI, please upgrade', 403);
    sb.store.run("UPDATE accounts SET role = 'seller' WHERE username = ?", sb.app().owner);
    expectOk(await sb.seller('appdetails'));
    sb.store.run('UPDATE apps SET banned = 1 WHERE id = ?', sb.app().id);
    expectFail(await sb.seller('appdetails'), 'This application has been banned from KeyAuth.cc for violating terms', 403);
  });
});

describe('statuses', () => {
  it('answers failures with the statuses of the hosted seller API by default, 400 in the spec-strict mode, the body unchanged', async () => {
    const hosted = await startSellerSandbox();
    const strict = await startSellerSandbox({ failureStatus: 400 });
    for (const [type, params, message, hostedStatus] of [
      ['fetchallusers', {}, 'No users found', 406],
      ['verify', { key: 'NOPE' }, 'Key Not Found', 406],
      ['fetchfile', { id: '123456' }, 'No file Found with ID: 123456', 406],
      ['add', {}, 'Expiry not set', 406],
      ['getvar', { user: 'nobody', var: 'v' }, 'Variable not found for user', 404],
      ['del', { key: 'NOPE' }, 'Failed to delete license!', 200],
      ['info', { key: 'NOPE' }, 'Key Not Found', 200],
      ['add', { expiry: 'soon' }, 'Expiry must a number of days', 200],
    ] as const) {
      for (const [sb, status] of [[hosted, hostedStatus], [strict, 400]] as const) {
        const res = await sb.seller(type, params);
        expect(res.status, `${type} ${res.text}`).toBe(status);
        expect(res.json).toEqual({ success: false, message });
      }
    }
    for (const [sb, status] of [[hosted, 404], [strict, 400]] as const) {
      expectFail(await sb.seller('appdetails', { sellerkey: 'b'.repeat(32) }), 'No application found', status);
    }
  });

  it('answers a fault with 500 and no details of it', async () => {
    const sb = await startSellerSandbox({
      handlers: {
        seller: {
          stats: () => {
            throw new Error('boom at /srv/secret/path.ts');
          },
        },
      },
    });
    const res = await sb.seller('stats');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ success: false, message: 'Error: internal server error' });
    expect(res.text).not.toContain('boom');
    expectOk(await sb.seller('appdetails'));
  });
});
