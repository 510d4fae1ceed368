/**
 * The reseller shop hook and reseller balances, through kactl against a real sandbox:
 * `kactl reseller simulate-sale` posts each shop's signed payload to `/api/reseller/`; a sale
 * without --expiry adds to the reseller's balance by product, one with --expiry answers the keys
 * one a line (lasting the sold product's duration); bad signatures, unknown resellers and unset
 * products get the `Failure: …` text.
 * `licenses create --owner RESELLER` spends that balance and is refused when it runs out.
 * On the old code `/api/reseller/` answered 404 and `reseller` was an unknown command.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const SLOW = 90_000;
const SECRETS = { sellix: 'sellix-whsec-1', shoppy: 'shoppy-whsec-2', sellapp: 'sellapp-whsec-3' } as const;
let sb: E2ESandbox;

/** The reseller's balance (getbalance answers the counts as strings). */
async function balance(): Promise<Record<string, number>> {
  const body = await sb.json<{ balance: Record<string, string> }>(['team', 'balance', 'bob', '--app-name', sb.info.app.name, '--json']);
  return Object.fromEntries(Object.entries(body.balance).map(([unit, n]) => [unit, Number(n)]));
}

function sale(shop: keyof typeof SECRETS, args: string[]) {
  return sb.kactl(['reseller', 'simulate-sale', '--shop', shop, '--reseller', 'bob', ...args], { env: { KACTL_SHOP_SECRET: SECRETS[shop] } });
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['team', 'create', '--role', 'Reseller', '--username', 'bob', '--password-stdin', '--email', 'bob@example.com'], { input: 'bob-pass-123' });
  // Each shop has its own product ids (the real service keeps one set per shop).
  await sb.ok(['app', 'set', '--sellix-secret-stdin', '--sellix-month-product', 'prod-month', '--sellix-day-product', 'prod-day'], { input: SECRETS.sellix });
  await sb.ok(['app', 'set', '--shoppy-day-product', 'shoppy-day', '--sellapp-lifetime-product', 'slug-life']);
  await sb.ok(['app', 'set', '--shoppy-secret-stdin'], { input: SECRETS.shoppy });
  await sb.ok(['app', 'set', '--sellapp-secret-stdin'], { input: SECRETS.sellapp });
}, SLOW);

describe('reseller shop hook (e2e)', () => {
  it('sales from each shop add balance by product; --expiry sales answer keys', async () => {
    expect((await sale('sellix', ['--product', 'prod-month', '--quantity', '3'])).stderr).toContain('Success: Reseller Balance Increased');
    expect((await sale('shoppy', ['--product', 'shoppy-day', '--quantity', '2'])).code).toBe(0);
    expect((await sale('sellapp', ['--product', 'slug-life', '--quantity', '1'])).code).toBe(0);
    expect(await balance()).toMatchObject({ day: 2, month: 3, lifetime: 1 });
    // --unit sends the id the selling shop stored for that unit (read with the seller key).
    expect((await sale('shoppy', ['--unit', 'day', '--quantity', '1'])).code).toBe(0);
    expect((await sale('sellapp', ['--unit', 'lifetime', '--quantity', '1'])).code).toBe(0);
    expect(await balance()).toMatchObject({ day: 3, month: 3, lifetime: 2 });
    const noUnitId = await sale('shoppy', ['--unit', 'week', '--quantity', '1']);
    expect(noUnitId.code).toBe(2);
    expect(noUnitId.stderr).toContain('No shoppy week product id is stored; set one with `kactl app set --shoppy-week-product ID`.');
    expect((await sale('sellix', ['--quantity', '1'])).code).toBe(2);

    // Keys last what the sold product stands for (Shoppy's day product: 1 day).
    const keys = await sale('shoppy', ['--product', 'shoppy-day', '--quantity', '4', '--expiry', '1', '--level', '1']);
    expect(keys.code, keys.stderr).toBe(0);
    const lines = keys.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const key of lines) expect(key).toMatch(/^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}$/);
    const info = await sb.json<{ genby?: string; usedby?: unknown }>(['licenses', 'info', lines[0]!, '--json']);
    expect(JSON.stringify(info)).toContain('bob');
    // The URL cannot make them last longer than the product.
    const longer = await sale('shoppy', ['--product', 'shoppy-day', '--quantity', '1', '--expiry', '30']);
    expect(longer.code).toBe(1);
    expect(longer.stderr).toContain('Failure: expiry=30 does not match the day product (1 days)');
  }, SLOW);

  it('refusals: wrong secret, unknown reseller, unset product, bad flags', async () => {
    const wrong = await sb.kactl(['reseller', 'simulate-sale', '--shop', 'sellix', '--reseller', 'bob', '--product', 'prod-month', '--quantity', '1'], { env: { KACTL_SHOP_SECRET: 'not-it' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Failure: authentication with sellix secret failed');
    const nobody = await sb.kactl(['reseller', 'simulate-sale', '--shop', 'sellapp', '--reseller', 'ghost', '--product', 'slug-life', '--quantity', '1'], { env: { KACTL_SHOP_SECRET: SECRETS.sellapp } });
    expect(nobody.stderr).toContain('Failure: No account with the supplied username under this application found');
    const unset = await sale('sellix', ['--product', 'prod-year', '--quantity', '1']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain("You didn't set product id in app settings.");
    // Another shop's product id counts for nothing here: Sellix's day product sold on Shoppy.
    const otherShop = await sale('shoppy', ['--product', 'prod-day', '--quantity', '1']);
    expect(otherShop.code).toBe(1);
    expect(otherShop.stderr).toContain("You didn't set product id in app settings.");
    const otherSlug = await sale('sellapp', ['--product', 'prod-month', '--quantity', '1']);
    expect(otherSlug.stderr).toContain("You didn't set product URL in app settings.");
    const badShop = await sb.kactl(['reseller', 'simulate-sale', '--shop', 'gumroad', '--reseller', 'bob', '--product', 'x', '--quantity', '1']);
    expect(badShop.code).toBe(2);
    const noSecret = await sb.kactl(['reseller', 'simulate-sale', '--shop', 'sellix', '--reseller', 'bob', '--product', 'x', '--quantity', '1']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('KACTL_SHOP_SECRET');
    expect(await balance()).toMatchObject({ day: 3, month: 3, lifetime: 2 });
  }, SLOW);

  it('licenses create --owner RESELLER spends the balance for that duration', async () => {
    await sb.ok(['licenses', 'create', '--owner', 'bob', '--expiry', '30', '--amount', '2']);
    expect((await balance()).month).toBe(1);
    const over = await sb.kactl(['licenses', 'create', '--owner', 'bob', '--expiry', '30', '--amount', '2']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('Reseller balance too low: bob has 1 month key(s) left, 2 asked');
    expect((await balance()).month).toBe(1);
    const odd = await sb.kactl(['licenses', 'create', '--owner', 'bob', '--expiry', '12']);
    expect(odd.stderr).toContain('Reseller keys must last a day, week, month');
    // Keys for someone who is not a reseller are not paid from any balance.
    await sb.ok(['licenses', 'create', '--owner', 'not-a-reseller', '--expiry', '12']);
  }, SLOW);
});

describe('reseller shop hook over plain HTTP', () => {
  it('a request without any shop signature, and an unknown app', async () => {
    const bare = await fetch(`${sb.info.baseUrl}/api/reseller/?app=x`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(bare.status).toBe(200);
    expect(await bare.text()).toBe("Request isn't coming from SellApp, Sellix, or Shoppy.");
    const unknown = await fetch(`${sb.info.baseUrl}/api/reseller/?app=nope`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'x-sellix-signature': 'ab' } });
    expect(await unknown.text()).toBe('Failure: application not found');
  });
});
