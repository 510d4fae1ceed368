/** Seller API, reseller and manager accounts (docs/protocol/seller-api.md §3.14), over real HTTP. */
import { describe, expect, it } from 'vitest';
import { findAppAccount, findSellerAccount } from '../../src/server/domain/accounts.js';
import { verifyPassword } from '../../src/server/domain/passwords.js';
import { hashEmail } from '../../src/server/domain/users.js';
import { expectEmptyList, expectFail, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const PERMS = 'Invalid permission value. You must have at least one permission flag enabled!';

async function reseller(sb: TestSandbox, user = 'shop1'): Promise<void> {
  await sellerOk(sb, 'addAccount', { role: 'Reseller', user, pass: 's3cret', email: `${user}@example.com`, keylevels: '1|2' }, 'Successfully added account!');
}

describe('addAccount', () => {
  it('creates a reseller with a hashed password and hashed email, and a manager with permissions', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    const account = findAppAccount(sb.store, sb.app().id, 'shop1')!;
    expect(account).toMatchObject({ role: 'Reseller', appId: sb.app().id, owner: 'sandbox-owner', keylevels: '1|2', balance: '0|0|0|0|0|0|0', emailHash: hashEmail('shop1@example.com') });
    expect(account.passwordHash).not.toContain('s3cret');
    expect(await verifyPassword('s3cret', account.passwordHash!)).toBe(true);
    await sellerOk(sb, 'addAccount', { role: 'Manager', user: 'mgr1', pass: 'p', email: 'mgr1@example.com', perms: '5' });
    expect(findAppAccount(sb.store, sb.app().id, 'mgr1')).toMatchObject({ role: 'Manager', perms: 5, keylevels: 'N/A' });
  });

  it('refuses what the page lists', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    const base = { role: 'Reseller', user: 'shop2', pass: 'p', email: 'shop2@example.com' };
    expectFail(await sb.seller('addAccount', { ...base, role: 'reseller' }), 'Role options are Manager or Reseller!');
    expectFail(await sb.seller('addAccount', { ...base, role: undefined }), 'Role options are Manager or Reseller!');
    expectFail(await sb.seller('addAccount', { ...base, perms: '0' }), PERMS);
    expectFail(await sb.seller('addAccount', { ...base, perms: '4096' }), PERMS);
    expectFail(await sb.seller('addAccount', { ...base, perms: 'all' }), PERMS);
    expectFail(await sb.seller('addAccount', { ...base, user: 'shop1' }), 'Username already taken!');
    // The app's seller's own account name is taken too (names are unique within the app).
    expectFail(await sb.seller('addAccount', { ...base, user: 'sandbox-owner' }), 'Username already taken!');
    expectFail(await sb.seller('addAccount', { ...base, email: 'SHOP1@example.com' }), 'Email already taken!');
    expectFail(await sb.seller('addAccount', { ...base, email: undefined }), 'Unhandled Error! Contact support if you need help');
    expectFail(await sb.seller('addAccount', { ...base, pass: undefined }), 'Missing parameter: pass');
    expect(findAppAccount(sb.store, sb.app().id, 'shop2')).toBeUndefined();
  });
});

describe('deleteAccount', () => {
  it('deletes this app\'s accounts only', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    await sellerOk(sb, 'deleteAccount', { user: 'shop1' }, 'Successfully deleted account!');
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')).toBeUndefined();
    expectFail(await sb.seller('deleteAccount', { user: 'shop1' }), 'Failed to delete account!');
    expectFail(await sb.seller('deleteAccount', { user: 'sandbox-owner' }), 'Failed to delete account!');
    expect(findSellerAccount(sb.store, 'sandbox-owner')).toBeDefined();
  });
});

describe('balances', () => {
  it('setbalance adds every unit, year included; getbalance shows every unit and the total', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    await sellerOk(sb, 'setbalance', { username: 'shop1', day: '1', week: '2', month: '3', threemonth: '4', sixmonth: '5', lifetime: '6', year: '7' }, 'Balance Successfully Added');
    await sellerOk(sb, 'setbalance', { username: 'shop1', month: '10' });
    const res = await sb.seller('getbalance', { username: 'shop1', appname: sb.info.app.name });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      balance: { day: '1', week: '2', month: '13', three_month: '4', six_month: '5', lifetime: '6', year: '7', total_keys: '38' },
    });
  });

  it('setbalance refusals', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    await sellerOk(sb, 'addAccount', { role: 'Manager', user: 'mgr1', pass: 'p', email: 'mgr1@example.com' });
    expectFail(await sb.seller('setbalance', { day: '1' }), 'Username Not Set');
    const notYours = "You don't own account you were attemping to modify balance for";
    expectFail(await sb.seller('setbalance', { username: 'nobody', day: '1' }), notYours);
    expectFail(await sb.seller('setbalance', { username: 'sandbox-owner', day: '1' }), notYours);
    expectFail(await sb.seller('setbalance', { username: 'mgr1', day: '1' }), notYours);
    expectFail(await sb.seller('setbalance', { username: 'shop1', day: '-1' }), 'Invalid parameter: day must be 0 or more');
    expectFail(await sb.seller('setbalance', { username: 'shop1', week: 'two' }), 'Invalid parameter: week must be a whole number');
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')?.balance).toBe('0|0|0|0|0|0|0');
  });

  it('getbalance refuses other apps, unknown accounts and non-resellers', async () => {
    const sb = await startSellerSandbox();
    await reseller(sb);
    const refused = "Reseller Account Doesn't Exist Or It Doesn't Belong To You";
    expectFail(await sb.seller('getbalance', { username: 'shop1', appname: 'other-app' }), refused);
    expectFail(await sb.seller('getbalance', { username: 'nobody', appname: sb.info.app.name }), refused);
    expectFail(await sb.seller('getbalance', { username: 'sandbox-owner', appname: sb.info.app.name }), refused);
    expectFail(await sb.seller('getbalance', { username: 'shop1' }), 'Missing parameter: appname');
  });
});

describe('fetchteam', () => {
  it('lists resellers with balance and key levels, managers with permissions, no secrets', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchteam'), 'No team members found');
    await reseller(sb);
    await sellerOk(sb, 'setbalance', { username: 'shop1', lifetime: '2' });
    let body = await sellerOk(sb, 'fetchteam');
    expect(body['resellers']).toEqual([{ username: 'shop1', balance: '0|0|0|0|0|2|0', key_levels: '1|2' }]);
    expect(body['managers']).toEqual([]);
    await sellerOk(sb, 'addAccount', { role: 'Manager', user: 'mgr1', pass: 'p', email: 'mgr1@example.com', perms: '2047' });
    body = await sellerOk(sb, 'fetchteam');
    expect(body['managers']).toEqual([{ username: 'mgr1', permissions: '2047' }]);
    const text = JSON.stringify(body);
    expect(text).not.toContain(findAppAccount(sb.store, sb.app().id, 'shop1')!.passwordHash!);
    expect(text).not.toContain(hashEmail('shop1@example.com'));
  });
});
