/** Seller API, global variables (§3.5) and user variables (§3.10), over real HTTP. */
import { describe, expect, it } from 'vitest';
import { findGlobalVar } from '../../src/server/domain/global-vars.js';
import { getUserVar } from '../../src/server/domain/user-vars.js';
import { findUser } from '../../src/server/domain/users.js';
import { expectEmptyList, expectFail, expectOk, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const AUTHED = "Authed paramater must be 1 if you want to require login first, or 0 if you don't want to.";

function userVar(sb: TestSandbox, user: string, name: string) {
  return getUserVar(sb.store, findUser(sb.store, sb.app().id, user)!.id, name);
}

describe('global variables', () => {
  it('addvar / retrvvar / fetchallvars', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'Welcome back', authed: '1' }, 'Successfully created variable!');
    await sellerOk(sb, 'addvar', { name: 'open', data: 'hi', authed: '0' });
    const res = await sb.seller('retrvvar', { name: 'motd' });
    expect(res.json).toEqual({ success: true, message: 'Welcome back', authed: 'true' });
    expect((await sb.seller('retrvvar', { name: 'open', format: 'text' })).json).toEqual({ success: true, message: 'hi', authed: 'false' });
    expect((await sellerOk(sb, 'fetchallvars', {}, 'Successfully retrieved variables'))['vars']).toEqual([
      { varid: 'motd', msg: 'Welcome back', authed: '1' },
      { varid: 'open', msg: 'hi', authed: '0' },
    ]);
  });

  it('addvar refuses a taken name, a missing or malformed authed, and long data or names', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'x', authed: '0' });
    expectFail(await sb.seller('addvar', { name: 'motd', data: 'y', authed: '0' }), 'Varialbe name already exists!');
    expectFail(await sb.seller('addvar', { name: 'v2', data: 'y' }), AUTHED);
    expectFail(await sb.seller('addvar', { name: 'v2', data: 'y', authed: 'sure' }), AUTHED);
    expectFail(await sb.seller('addvar', { name: 'v2', data: 'y'.repeat(1001), authed: '0' }), 'Data is too long. Must be less than 1000 characters. Use files for larger data');
    expectFail(await sb.seller('addvar', { name: 'n'.repeat(50), data: 'y', authed: '0' }), 'Invalid parameter: name must be at most 49 characters');
    expectFail(await sb.seller('addvar', { name: 'v2', authed: '0' }), 'Missing parameter: data');
    await sellerOk(sb, 'addvar', { name: 'v3', data: 'y'.repeat(1000), authed: '0' });
  });

  it('editvar changes the value; an unknown name is refused (E reports success)', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'old', authed: '0' });
    await sellerOk(sb, 'editvar', { varid: 'motd', data: 'new' }, 'Variable Edit Successful');
    expect(findGlobalVar(sb.store, sb.app().id, 'motd')?.msg).toBe('new');
    expectFail(await sb.seller('editvar', { varid: 'nope', data: 'x' }), 'Variable not found');
    expectFail(await sb.seller('editvar', { varid: 'motd', data: 'x'.repeat(1001) }), 'Data is too long. Must be less than 1000 characters. Use files for larger data');
  });

  it('delvar / delallvars / retrvvar of a missing variable', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallvars'), 'No variables Found');
    expectFail(await sb.seller('delallvars'), 'Failed to delete all variables!');
    await sellerOk(sb, 'addvar', { name: 'a', data: '1', authed: '0' });
    await sellerOk(sb, 'addvar', { name: 'b', data: '2', authed: '0' });
    await sellerOk(sb, 'delvar', { name: 'a' }, 'Successfully deleted variable!');
    expectFail(await sb.seller('delvar', { name: 'a' }), 'Failed to delete variable!');
    expectFail(await sb.seller('retrvvar', { name: 'a' }), 'Variable not found');
    await sellerOk(sb, 'delallvars', {}, 'Successfully deleted all variables!');
    expectEmptyList(await sb.seller('fetchallvars'), 'No variables Found');
  });
});

describe('user variables', () => {
  it('setvar / getvar / fetchalluservars', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'discord', data: 'alice#1', readOnly: '1' }, 'Successfully set variable!');
    expect(userVar(sb, 'alice', 'discord')).toMatchObject({ data: 'alice#1', readOnly: 1 });
    // An upsert; an absent readOnly keeps the flag.
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'discord', data: 'alice#2' });
    expect(userVar(sb, 'alice', 'discord')).toMatchObject({ data: 'alice#2', readOnly: 1 });
    const res = await sb.seller('getvar', { user: 'alice', var: 'discord' });
    expect(res.json).toEqual({ success: true, message: 'Successfully retrieved variable', response: 'alice#2' });
    expect((await sellerOk(sb, 'fetchalluservars', {}, 'Successfully retrieved user variables'))['vars']).toEqual([{ name: 'discord', data: 'alice#2', user: 'alice', readOnly: '1' }]);
  });

  it('getvar with format=text answers the raw value', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'note', data: 'a "quoted" / value' });
    const res = await sb.seller('getvar', { user: 'alice', var: 'note', format: 'text' });
    expect([res.status, res.headers.get('content-type'), res.text]).toEqual([200, 'text/plain; charset=utf-8', 'a "quoted" / value']);
    const missing = await sb.seller('getvar', { user: 'alice', var: 'nope', format: 'text' });
    expect([missing.status, missing.text]).toEqual([404, 'Variable not found for user']);
  });

  it('setvar user=all sets it for every user; refuses when there are none', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('setvar', { user: 'all', var: 'tier', data: 'gold' }), 'No users found!');
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    await sellerOk(sb, 'setvar', { user: 'all', var: 'tier', data: 'gold' });
    expect(userVar(sb, 'alice', 'tier')?.data).toBe('gold');
    expect(userVar(sb, 'bob', 'tier')?.data).toBe('gold');
  });

  it('setvar refuses missing names or data, unknown users and oversized values', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('setvar', { user: 'alice', data: 'x' }), 'Must specify variable name');
    expectFail(await sb.seller('setvar', { user: 'alice', var: 'v' }), 'Must specify variable data');
    expectFail(await sb.seller('setvar', { user: 'nobody', var: 'v', data: 'x' }), 'Failed to set variable!');
    expectFail(await sb.seller('setvar', { user: 'alice', var: 'v', data: 'x'.repeat(501) }), 'Invalid parameter: data must be at most 500 characters');
    expectFail(await sb.seller('setvar', { user: 'alice', var: 'v'.repeat(100), data: 'x' }), 'Invalid parameter: var must be at most 99 characters');
  });

  it('getvar / deluservar / massUserVarDelete refusals and effects', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchalluservars'), 'No user variables Found');
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    expectFail(await sb.seller('getvar', { user: 'alice', var: 'v' }), 'Variable not found for user', 404);
    expectFail(await sb.seller('getvar', { user: 'nobody', var: 'v' }), 'Variable not found for user', 404);
    await sellerOk(sb, 'setvar', { user: 'all', var: 'v', data: 'x' });
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'w', data: 'y' });
    await sellerOk(sb, 'deluservar', { user: 'alice', var: 'w' }, 'Successfully deleted variable');
    expectFail(await sb.seller('deluservar', { user: 'alice', var: 'w' }), 'Failed to delete variable');
    expectFail(await sb.seller('deluservar', { user: 'nobody', var: 'v' }), 'Failed to delete variable');
    await sellerOk(sb, 'massUserVarDelete', { name: 'v' }, 'Successfully deleted user variables with that name!');
    expectEmptyList(await sb.seller('fetchalluservars'), 'No user variables Found');
    expectFail(await sb.seller('massUserVarDelete', { name: 'v' }), 'Failed to delete user variables with that name!');
    expectOk(await sb.seller('verifyuser', { user: 'bob' }));
  });
});
