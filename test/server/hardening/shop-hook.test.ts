/**
 * Issue 21 item 3: the reseller shop hook minted without limit. One signed delivery replayed
 * three times credited the reseller three times; `expiry` and `level` came from the unsigned
 * query string (a 100-year, level-99 key from a body signed for a day's level-1 key); quantities
 * `true`, `[3]`, `"0x10"`, `"1e2"` were taken; the daily quota and `add`'s rules were skipped;
 * `expiry=1e300` stored 8.64e304 seconds and that user's panel answered 500; 300 forged
 * signatures in a row met no limit. Now: each sale id is processed once, keys last the sold
 * product's duration at the reseller's key level, the quantity is a JSON whole number from 1 to
 * 100, keys count against the daily quota, and wrong signatures are limited per client IP.
 */
import { describe, expect, it } from 'vitest';
import { shopSignature } from '../../../src/server/reseller/shop-hook.js';
import { signedInBrowser } from '../../helpers/panel-browser.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const SECRET = 'sellix-whsec-1';

/** A reseller `bob` (key levels `2|3`), the Sellix secret, and Sellix products for a day and a month. */
async function shopSetup(options: { rateLimit?: boolean } = {}): Promise<TestSandbox> {
  const sb = await startTestSandbox(options);
  expect((await sb.seller('addAccount', { role: 'Reseller', user: 'bob', pass: 'bob-pass-1', email: 'bob@example.com', keylevels: '3|2' })).json.success).toBe(true);
  expect((await sb.seller('updatesettings', { sellixsecret: SECRET, sellixdayproduct: 'prod-day', sellixmonthproduct: 'prod-month' })).json.success).toBe(true);
  return sb;
}

function sellixBody(data: Record<string, unknown>): string {
  return JSON.stringify({ event: 'order:paid', data: { uniqid: 'sale-1', product_id: 'prod-day', quantity: 1, custom_fields: { username: 'bob' }, ...data } });
}

async function deliver(sb: TestSandbox, body: string, query: Record<string, string> = {}, signature = shopSignature('sellix', SECRET, body)) {
  const search = new URLSearchParams({ app: sb.info.app.secret, ...query });
  return sb.request(`/api/reseller/?${search.toString()}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-sellix-signature': signature } });
}

async function balance(sb: TestSandbox): Promise<Record<string, string>> {
  return (await sb.seller('getbalance', { username: 'bob', appname: sb.info.app.name })).json.balance as Record<string, string>;
}

const keysOf = (sb: TestSandbox): { key: string; expires: number; level: string }[] =>
  sb.store.all<{ key: string; expires: number; level: string }>('SELECT key, expires, level FROM licenses WHERE appId = ?', sb.app().id);

describe('shop hook: each sale once', () => {
  it('a balance sale replayed three times credits once; the repeats answer success', async () => {
    const sb = await shopSetup();
    const body = sellixBody({ uniqid: 'sale-balance', product_id: 'prod-month', quantity: 2 });
    expect((await deliver(sb, body)).text).toBe('Success: Reseller Balance Increased');
    for (let i = 0; i < 3; i++) {
      const again = await deliver(sb, body);
      expect(again.status).toBe(200);
      expect(again.text).toBe('Success: sale sale-balance was already processed; nothing more was made');
    }
    expect((await balance(sb)).month).toBe('2');
    // Another sale id is another sale.
    expect((await deliver(sb, sellixBody({ uniqid: 'sale-balance-2', product_id: 'prod-month', quantity: 1 }))).text).toBe('Success: Reseller Balance Increased');
    expect((await balance(sb)).month).toBe('3');
  });

  it('a key sale replayed makes no more keys and does not hand out the first ones again', async () => {
    const sb = await shopSetup();
    const body = sellixBody({ uniqid: 'sale-keys', quantity: 3 });
    const first = await deliver(sb, body, { expiry: '1', level: '2' });
    const keys = first.text.split('\r\n');
    expect(keys).toHaveLength(3);
    const again = await deliver(sb, body, { expiry: '1', level: '2' });
    expect(again.text).toMatch(/^Success: sale sale-keys was already processed/);
    for (const key of keys) expect(again.text).not.toContain(key);
    expect(keysOf(sb)).toHaveLength(3);
  });

  it('twenty simultaneous deliveries of one sale credit it once', async () => {
    const sb = await shopSetup();
    const body = sellixBody({ uniqid: 'sale-race', product_id: 'prod-month', quantity: 1 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(sb, body)));
    expect(answers.filter((a) => a.text === 'Success: Reseller Balance Increased')).toHaveLength(1);
    expect((await balance(sb)).month).toBe('1');
  });

  it('a payload without a sale id is refused', async () => {
    const sb = await shopSetup();
    const body = JSON.stringify({ data: { product_id: 'prod-month', quantity: 1, custom_fields: { username: 'bob' } } });
    expect((await deliver(sb, body)).text).toBe('Failure: the payload has no sale id (data.uniqid), so the sale could be processed more than once');
    expect((await balance(sb)).month).toBe('0');
  });
});

describe('shop hook: what the keys are comes from the signed sale and the app settings', () => {
  it('the unsigned query string cannot lengthen the keys or raise their level', async () => {
    const sb = await shopSetup();
    const body = sellixBody({ uniqid: 'sale-day', product_id: 'prod-day', quantity: 1 });
    const longer = await deliver(sb, body, { expiry: '36500', level: '2' });
    expect(longer.text).toBe('Failure: expiry=36500 does not match the day product (1 days): keys last what the product stands for in the app settings');
    const higher = await deliver(sb, body, { expiry: '1', level: '99' });
    expect(higher.text).toBe("Failure: level=99 is not the reseller's key level (2): the level comes from the reseller's key levels in the app settings");
    for (const expiry of ['1e300', '-1', '0', 'abc']) expect((await deliver(sb, body, { expiry })).text, expiry).toMatch(/^Failure: expiry=/);
    expect(keysOf(sb)).toHaveLength(0);
    // What the settings say is made: a day, at the reseller's lowest key level.
    const made = await deliver(sb, body, { expiry: '1' });
    expect(made.text).toMatch(/^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}$/);
    expect(keysOf(sb)).toEqual([{ key: made.text, expires: 86_400, level: '2' }]);
  });

  it('a month product makes month keys; a product the shop has no id for is refused', async () => {
    const sb = await shopSetup();
    const month = await deliver(sb, sellixBody({ uniqid: 'sale-month', product_id: 'prod-month' }), { expiry: '30' });
    expect(keysOf(sb)).toEqual([{ key: month.text, expires: 2_592_000, level: '2' }]);
    expect((await deliver(sb, sellixBody({ uniqid: 'sale-other', product_id: 'whatever' }), { expiry: '30' })).text).toBe("You didn't set product id in app settings.");
  });

  it('the quantity must be a JSON whole number from 1 to 100', async () => {
    const sb = await shopSetup();
    const refusals: unknown[] = [true, [3], '0x10', '1e2', '5', 2.5, 0, -1, 101, null, { n: 1 }];
    for (const [i, quantity] of refusals.entries()) {
      const answer = await deliver(sb, sellixBody({ uniqid: `sale-q${i}`, product_id: 'prod-month', quantity }));
      expect(answer.text, JSON.stringify(quantity)).toBe('Failure: the quantity must be a JSON whole number from 1 to 100');
    }
    expect((await balance(sb)).month).toBe('0');
    expect((await deliver(sb, sellixBody({ uniqid: 'sale-q-ok', product_id: 'prod-month', quantity: 100 }))).text).toBe('Success: Reseller Balance Increased');
    expect((await balance(sb)).month).toBe('100');
  });

  it('keys count against the daily quota of 5000, as the seller add', async () => {
    const sb = await shopSetup();
    for (let i = 0; i < 50; i++) expect((await sb.seller('add', { expiry: '1', amount: '100' })).json.success).toBe(true);
    const over = await deliver(sb, sellixBody({ uniqid: 'sale-quota' }), { expiry: '1' });
    expect(over.status).toBe(429);
    expect(over.text).toBe('Failure: You can only generate 5000 keys per 24 hours with SellerAPI.');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(keysOf(sb)).toHaveLength(5000);
  });

  it('a stored key of an absurd duration does not break the panel of the user who redeemed it', async () => {
    const sb = await shopSetup();
    // As a store written before durations were capped holds it.
    sb.store.run("INSERT INTO licenses (appId, key, expires, status, level, genby, gendate) VALUES (?, 'ABSURD-KEY', 8.64e304, 'Not Used', '1', 'bob', 0)", sb.app().id);
    const sid = await sb.init();
    expect((await sb.client('register', { sessionid: sid, username: 'erin', pass: 'erin-pass-1', key: 'ABSURD-KEY', hwid: 'HWID-0123456789abcdef-linux' })).json.success).toBe(true);
    const base = new URL((await sb.client('init')).json.appinfo.customerPanelLink as string).pathname;
    const browser = await signedInBrowser(sb, base, 'erin', 'erin-pass-1');
    const page = await browser.get(base);
    expect(page.status).toBe(200);
    expect(page.text).toContain('never (too far ahead to show)');
    // And the seller add refuses such a duration.
    expect((await sb.seller('add', { expiry: '1000000' })).json).toMatchObject({ success: false, message: 'Key duration must be at most 100000 days' });
  });
});

describe("seller add's quantity from a shop's JSON body", () => {
  it('reads digits only: "0x10" and "1e2" are not 16 and 100 keys', async () => {
    const sb = await startTestSandbox();
    for (const quantity of ['0x10', '1e2', ' 5 ']) {
      const search = new URLSearchParams({ sellerkey: sb.info.sellerKey, type: 'add', expiry: '1', format: 'json' });
      const res = await sb.request(`/api/seller/?${search.toString()}`, { method: 'POST', body: JSON.stringify({ data: { quantity } }), headers: { 'content-type': 'application/json' } });
      expect(res.json.success, quantity).toBe(true);
    }
    expect(keysOf(sb)).toHaveLength(3);
    const search = new URLSearchParams({ sellerkey: sb.info.sellerKey, type: 'add', expiry: '1', format: 'json' });
    await sb.request(`/api/seller/?${search.toString()}`, { method: 'POST', body: JSON.stringify({ data: { quantity: '4' } }), headers: { 'content-type': 'application/json' } });
    expect(keysOf(sb)).toHaveLength(7);
  });
});

describe('shop hook: forged signatures', () => {
  it('with rate limits on, a client IP gets 10 wrong signatures a minute; then even a right one waits', async () => {
    const sb = await shopSetup({ rateLimit: true });
    const body = sellixBody({ uniqid: 'sale-forged', product_id: 'prod-month' });
    for (let i = 0; i < 10; i++) expect((await deliver(sb, body, {}, 'ab'.repeat(64))).text).toBe('Failure: authentication with sellix secret failed');
    const limited = await deliver(sb, body);
    expect(limited.status).toBe(429);
    expect(limited.text).toMatch(/^Failure: too many deliveries with a wrong signature from this address\. Try again in \d+ seconds\.$/);
    expect((await balance(sb)).month).toBe('0');
  });
});
