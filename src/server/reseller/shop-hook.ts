/**
 * `/api/reseller/?app=<app secret>[&expiry=<days>&level=<n>]`: the e-commerce hook a seller
 * points Sellix, Shoppy or SellApp at (docs/protocol/seller-api.md §3.15; what each shop sends:
 * shop-payloads.ts). The payload names the sale, the reseller (a custom field), the quantity and
 * the product. With `expiry` the sale makes that many keys for the reseller, answered as plain
 * text one a line (CRLF, as the real service); without it the sale adds to the reseller's balance
 * of the product's duration. Answers are plain text; failures start with `Failure:` where the
 * real service's do.
 *
 * Stricter than the real service, which trusts the query string and processes a delivery as
 * often as it arrives (the app secret in `app=` ships inside every copy of the program, so it
 * proves nothing). Here the signed body is the only say of the sender:
 * - each sale is processed once per app and shop (domain/shop-sales.ts); a repeat answers
 *   `Success:` and makes nothing, and never hands out the first delivery's keys again;
 * - the keys last the duration of the sold product's unit (the app's product ids per shop) and
 *   have the reseller's key level (domain/reseller-balance.ts); an `expiry` or `level` in the URL
 *   must agree with those or the sale is refused;
 * - the quantity must be a JSON whole number from 1 to 100, and keys count against the app's
 *   daily quota, as the seller `add`;
 * - with rate limits on, 10 deliveries with a wrong signature a minute per client IP.
 */
import { addBalance } from '../domain/accounts.js';
import { findAppBySecret } from '../domain/apps.js';
import { generateLicenses } from '../domain/licenses.js';
import { findAppReseller, resellerKeyLevel, UNIT_SECONDS, unitForDuration } from '../domain/reseller-balance.js';
import { findShopSale, recordShopSale } from '../domain/shop-sales.js';
import type { AccountRow, AppRow } from '../domain/rows.js';
import { PRODUCT_UNITS, shopProductSetting, type ProductUnit, type ShopName } from '../../api/seller-catalog/shop-products.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { dailyQuota, DAILY_QUOTA_MESSAGE, MAX_KEYS_PER_CALL } from '../seller/key-quota.js';
import { rangeProblem } from '../seller/param-ranges.js';
import { saleIdOf, saleQuantity, SHOPS, shopOf, shopSignature, signatureMatches } from './shop-payloads.js';

export { SHOPS, shopSignature };

const KEY_MASK = '******-******-******-******-******-******';

export const SHOP_HOOK_MESSAGES = {
  notShop: "Request isn't coming from SellApp, Sellix, or Shoppy.",
  noApp: 'Failure: application not found',
  badSignature: (label: string) => `Failure: authentication with ${label} secret failed`,
  tooManyBadSignatures: (seconds: number) => `Failure: too many deliveries with a wrong signature from this address. Try again in ${seconds} seconds.`,
  notJson: 'Failure: the payload is not JSON',
  noSaleId: (field: string) => `Failure: the payload has no sale id (${field}), so the sale could be processed more than once`,
  noReseller: 'Failure: No account with the supplied username under this application found',
  badQuantity: `Failure: the quantity must be a JSON whole number from 1 to ${MAX_KEYS_PER_CALL}`,
  noProduct: (shop: ShopName) => (shop === 'sellapp' ? "You didn't set product URL in app settings." : "You didn't set product id in app settings."),
  expiryMismatch: (sent: string, unit: ProductUnit) =>
    `Failure: expiry=${sent} does not match the ${unit} product (${Math.round(UNIT_SECONDS[unit] / 86_400)} days): keys last what the product stands for in the app settings`,
  levelMismatch: (sent: string, level: number) => `Failure: level=${sent} is not the reseller's key level (${level}): the level comes from the reseller's key levels in the app settings`,
  duplicate: (saleId: string) => `Success: sale ${saleId} was already processed; nothing more was made`,
  balanceDone: 'Success: Reseller Balance Increased',
} as const;

function text(body: string, status = 200, headers: Readonly<Record<string, string>> = {}): PageReply {
  return { status, contentType: 'text/plain; charset=utf-8', body, headers: { 'cache-control': 'no-store', ...headers } };
}

/** The balance unit a product id of this shop stands for: each shop has its own ids. */
function productUnit(app: AppRow, shop: ShopName, product: unknown): ProductUnit | undefined {
  if (typeof product !== 'string' && typeof product !== 'number') return undefined;
  const id = String(product);
  return PRODUCT_UNITS.find((unit) => {
    const stored = app[shopProductSetting(shop, unit)];
    return stored !== null && stored !== '' && stored === id;
  });
}

/** The keys' duration and level, from the product and the reseller; a refusal when the URL says otherwise. */
function keyTerms(params: Params, unit: ProductUnit, reseller: AccountRow): { expires: number; level: number } | { refusal: string } {
  const expires = UNIT_SECONDS[unit];
  const level = resellerKeyLevel(reseller);
  const sentExpiry = params.get('expiry') ?? '';
  const days = Number(sentExpiry);
  if (rangeProblem('add', 'expiry', sentExpiry) !== undefined || unitForDuration(Math.round(days * 86_400)) !== unit) {
    return { refusal: SHOP_HOOK_MESSAGES.expiryMismatch(sentExpiry, unit) };
  }
  const sentLevel = params.get('level');
  if (sentLevel !== undefined && sentLevel !== String(level)) return { refusal: SHOP_HOOK_MESSAGES.levelMismatch(sentLevel, level) };
  return { expires, level };
}

function handleSale(ctx: PageContext, params: Params): PageReply {
  const shop = shopOf(ctx.request.headers);
  if (shop === undefined) return text(SHOP_HOOK_MESSAGES.notShop);
  const rules = SHOPS[shop];
  const app = findAppBySecret(ctx.store, params.get('app') ?? '');
  if (app === undefined) return text(SHOP_HOOK_MESSAGES.noApp);
  const guessing = ctx.limits.peek('shopBadSignature', ctx.ip);
  if (!guessing.allowed) return text(SHOP_HOOK_MESSAGES.tooManyBadSignatures(guessing.retryAfterSeconds), 429, { 'retry-after': String(guessing.retryAfterSeconds) });
  const secret = rules.secret(app);
  const body = ctx.request.body ?? '';
  if (secret === null || secret === '' || !signatureMatches(shopSignature(shop, secret, body), String(ctx.request.headers[rules.header]))) {
    ctx.limits.hit('shopBadSignature', ctx.ip);
    return text(SHOP_HOOK_MESSAGES.badSignature(rules.label));
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return text(SHOP_HOOK_MESSAGES.notJson);
  }
  const sale = rules.read(typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {});
  const saleId = saleIdOf(sale.saleId);
  if (saleId === undefined) return text(SHOP_HOOK_MESSAGES.noSaleId(rules.saleIdField));
  if (findShopSale(ctx.store, app.id, shop, saleId) !== undefined) return text(SHOP_HOOK_MESSAGES.duplicate(saleId));
  const reseller = findAppReseller(ctx.store, app, typeof sale.username === 'string' ? sale.username : '');
  if (reseller === undefined) return text(SHOP_HOOK_MESSAGES.noReseller);
  const quantity = saleQuantity(sale.quantity, MAX_KEYS_PER_CALL);
  if (quantity === undefined) return text(SHOP_HOOK_MESSAGES.badQuantity);
  const unit = productUnit(app, shop, sale.product);
  if (unit === undefined) return text(SHOP_HOOK_MESSAGES.noProduct(shop));
  const record = { appId: app.id, shop, saleId, reseller: reseller.username, quantity };

  if (params.get('expiry') !== undefined) {
    const terms = keyTerms(params, unit, reseller);
    if ('refusal' in terms) return text(terms.refusal);
    const quota = dailyQuota(ctx.store, app.id, quantity, ctx.now);
    if (!quota.allowed) return text(`Failure: ${DAILY_QUOTA_MESSAGE}`, 429, { 'retry-after': String(quota.retryAfter) });
    const made = ctx.store.tx(() => {
      if (findShopSale(ctx.store, app.id, shop, saleId) !== undefined) return undefined;
      const keys = generateLicenses(ctx.store, app.id, { mask: KEY_MASK, amount: quantity, level: String(terms.level), genby: reseller.username, expires: terms.expires }, ctx.now);
      if (keys.ok) recordShopSale(ctx.store, { ...record, made: 'keys' }, ctx.now);
      return keys;
    });
    if (made === undefined) return text(SHOP_HOOK_MESSAGES.duplicate(saleId));
    if (!made.ok) return text(`Failure: ${made.message}`);
    ctx.log(`reseller sale via ${shop}: ${quantity} ${unit} key(s) for ${reseller.username}`);
    return text(made.value.join('\r\n'));
  }
  const credited = ctx.store.tx(() => {
    if (findShopSale(ctx.store, app.id, shop, saleId) !== undefined) return false;
    addBalance(ctx.store, app.id, reseller.username, { [unit]: quantity });
    recordShopSale(ctx.store, { ...record, made: 'balance' }, ctx.now);
    return true;
  });
  if (!credited) return text(SHOP_HOOK_MESSAGES.duplicate(saleId));
  ctx.log(`reseller sale via ${shop}: ${quantity} ${unit} balance for ${reseller.username}`);
  return text(SHOP_HOOK_MESSAGES.balanceDone);
}

export const resellerPages: readonly PageRoute[] = [
  // `app` is the app secret: the request inspector masks it.
  { method: 'POST', path: '/api/reseller', acceptsJson: true, secretParams: ['app'], handle: handleSale },
  { method: 'GET', path: '/api/reseller', secretParams: ['app'], handle: handleSale },
];
