/**
 * `add` with `keys`, the sandbox extension that makes several given keys in one call
 * (docs/protocol/seller-api.md §3.6, "Sandbox extension: several given keys"), and the
 * `getsettings` entry that says the sandbox takes it. Over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { findAppAccount } from '../../src/server/domain/accounts.js';
import { findLicense, generateLicenses, listLicenses } from '../../src/server/domain/licenses.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectFail, expectOk, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

function keysOf(sb: TestSandbox): string[] {
  return listLicenses(sb.store, sb.app().id).map((row) => row.key);
}

describe('add with keys', () => {
  it('is listed under sandbox.extensions of getsettings, with how many keys a call takes; the text form is unchanged', async () => {
    const sb = await startSellerSandbox();
    const body = await sellerOk(sb, 'getsettings');
    expect((body['sandbox'] as Record<string, unknown>)['extensions']).toEqual({ addkeys: 100 });
    expect((await sb.seller('getsettings', { format: 'text' })).text).not.toContain('addkeys');
  });

  it('makes every key given, one a line, with the level, note, duration and creator of the call', async () => {
    const sb = await startSellerSandbox();
    const body = expectOk(await sb.seller('add', { expiry: '30', level: '2', note: 'restored', keys: 'RS-0001\r\nRS-0002\n\n  RS-0003  \n' }), 'Licenses successfully generated');
    expect(body['keys']).toEqual(['RS-0001', 'RS-0002', 'RS-0003']);
    for (const key of ['RS-0001', 'RS-0002', 'RS-0003']) {
      expect(findLicense(sb.store, sb.app().id, key)).toMatchObject({ expires: 2_592_000, level: '2', note: 'restored', genby: 'SellerAPI', status: 'Not Used' });
    }
    // One key is answered as one key; an amount that says how many is accepted.
    expect(expectOk(await sb.seller('add', { expiry: '1', keys: 'RS-ALONE' }), 'License Successfully Generated')['key']).toBe('RS-ALONE');
    expect(expectOk(await sb.seller('add', { expiry: '1', amount: '2', keys: 'RS-A\nRS-B' }))['keys']).toEqual(['RS-A', 'RS-B']);
    // format=text: the keys alone, as for any add.
    expect((await sb.seller('add', { expiry: '1', keys: 'RS-T1\nRS-T2', format: 'text' })).text).toBe('RS-T1\r\nRS-T2');
  });

  it('takes a call as long as kactl sends (31 keys of 1000 characters, within its 32,000 encoded characters)', async () => {
    const sb = await startSellerSandbox();
    const keys = Array.from({ length: 31 }, (_, i) => `${String(i).padStart(4, '0')}-${'A'.repeat(995)}`);
    expect((expectOk(await sb.seller('add', { expiry: '1', keys: keys.join('\n') }))['keys'] as string[])).toEqual(keys);
  });

  it('reads each line as a single-key mask is read: trimmed and its tags stripped, one line never eating the next', async () => {
    const sb = await startSellerSandbox();
    expectOk(await sb.seller('add', { expiry: '1', mask: 'ONE<B' }));
    expectOk(await sb.seller('add', { expiry: '1', keys: 'TWO<B\nTHREE<i>X</i>' }));
    expect(keysOf(sb)).toEqual(['ONE', 'TWO', 'THREEX']);
  });

  it('refuses a mask, a key twice, too many keys, none, a mask beside them and a wrong amount, and makes nothing', async () => {
    const sb = await startSellerSandbox();
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => `MANY-${i}`).join('\n');
    for (const [params, message] of [
      [{ keys: 'OK-1\nPRO-****' }, 'Invalid parameter: keys holds "PRO-****", a mask (its * are random characters), not a key'],
      [{ keys: 'OK-1\nXXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX' }, 'Invalid parameter: keys holds "XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX", a mask (its * are random characters), not a key'],
      [{ keys: 'OK-1\nOK-2\n OK-1' }, 'Invalid parameter: keys names OK-1 more than once'],
      [{ keys: hundredAndOne }, 'You can only generate 100 licenses at a time'],
      [{ keys: ' \n \n' }, 'Invalid parameter: keys holds no keys'],
      [{ keys: 'OK-1', mask: 'OK-2' }, 'Invalid parameter: give mask or keys, not both'],
      [{ keys: 'OK-1\nOK-2', amount: '3' }, 'Invalid parameter: amount must be left out with keys, or be their number (2)'],
    ] as const) {
      expectFail(await sb.seller('add', { expiry: '1', ...params }), message);
    }
    expect(keysOf(sb)).toEqual([]);
  });

  it('is all or nothing: a key the app already has refuses the call, naming it, and none of the others is made', async () => {
    const sb = await startSellerSandbox();
    expectOk(await sb.seller('add', { expiry: '1', mask: 'TAKEN-1' }));
    expectFail(await sb.seller('add', { expiry: '1', keys: 'NEW-1\nTAKEN-1\nNEW-2' }), 'License key TAKEN-1 already exists');
    expect(keysOf(sb)).toEqual(['TAKEN-1']);
    // A duration past what a key may hold refuses them all too.
    expectFail(await sb.seller('add', { expiry: '100001', keys: 'NEW-1\nNEW-2' }), 'Key duration must be at most 100000 days');
    expect(keysOf(sb)).toEqual(['TAKEN-1']);
  });

  it('counts the keys against the daily quota', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    expect(generateLicenses(sb.store, sb.app().id, { amount: 4950, expires: 86_400 }, clock.seconds()).ok).toBe(true);
    const fiftyOne = Array.from({ length: 51 }, (_, i) => `Q-${i}`).join('\n');
    const refused = await sb.seller('add', { expiry: '1', keys: fiftyOne });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ success: false, message: 'You can only generate 5000 keys per 24 hours with SellerAPI.' });
    expect(findLicense(sb.store, sb.app().id, 'Q-0')).toBeUndefined();
    expect((expectOk(await sb.seller('add', { expiry: '1', keys: fiftyOne.split('\n').slice(1).join('\n') }))['keys'] as string[]).length).toBe(50);
    expectFail(await sb.seller('add', { expiry: '1', keys: 'Q-0' }), 'You can only generate 5000 keys per 24 hours with SellerAPI.', 429);
  });

  it("pays a reseller's keys from its balance, all of them or none", async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addAccount', { role: 'Reseller', user: 'shop1', pass: 's3cret', email: 'shop1@example.com', keylevels: '1|2' });
    await sellerOk(sb, 'setbalance', { username: 'shop1', day: '2' });
    expectFail(await sb.seller('add', { expiry: '1', owner: 'shop1', keys: 'R-1\nR-2\nR-3' }), 'Reseller balance too low: shop1 has 2 day key(s) left, 3 asked');
    expect(keysOf(sb)).toEqual([]);
    expectOk(await sb.seller('add', { expiry: '1', owner: 'shop1', keys: 'R-1\nR-2' }));
    expect(findLicense(sb.store, sb.app().id, 'R-2')?.genby).toBe('shop1');
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')?.balance).toBe('0|0|0|0|0|0|0');
    // A refused list keeps the balance it would have spent.
    await sellerOk(sb, 'setbalance', { username: 'shop1', day: '2' });
    expectFail(await sb.seller('add', { expiry: '1', owner: 'shop1', keys: 'R-3\nR-1' }), 'License key R-1 already exists');
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')?.balance).toBe('2|0|0|0|0|0|0');
  });
});
