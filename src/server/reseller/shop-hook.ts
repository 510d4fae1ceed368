/**
 * `/api/reseller/?app=<app secret>[&expiry=<days>&level=<n>]`: the e-commerce hook a seller
 * points Sellix, Shoppy or SellApp at (docs/protocol/seller-api.md §3.15). The shop signs the
 * raw JSON body with the secret the seller stored: Sellix `X-Sellix-Signature` and Shoppy
 * `X-Shoppy-Signature` are HMAC-SHA512 hex, SellApp `Signature` is HMAC-SHA256 hex. The payload
 * names the reseller (a custom field) and the quantity. With `expiry` the sale makes that many
 * keys for the reseller, answered as plain text one a line (CRLF, as the real service); without
 * it the sale adds to the reseller's balance of the product's duration. Answers are plain text;
 * failures start with `Failure:` where the real service's do.
 *
 * Each shop has its own product ids, as on the real service.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { addBalance, type BalanceUnit } from '../domain/accounts.js';
import { findAppBySecret } from '../domain/apps.js';
import { generateLicenses } from '../domain/licenses.js';
import { findAppReseller } from '../domain/reseller-balance.js';
import type { AppRow } from '../domain/rows.js';
import { PRODUCT_UNITS, shopProductSetting, type ShopName } from '../../api/seller-catalog/shop-products.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';

interface ShopRules {
  readonly header: string;
  readonly algorithm: 'sha512' | 'sha256';
  readonly label: string;
  readonly secret: (app: AppRow) => string | null;
  /** Reseller username, quantity and product id from the shop's payload. */
  readonly read: (payload: Record<string, unknown>) => { username: unknown; quantity: unknown; product: unknown };
}

const obj = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const first = (value: unknown): Record<string, unknown> => obj(Array.isArray(value) ? value[0] : undefined);

export const SHOPS: Readonly<Record<ShopName, ShopRules>> = {
  sellix: {
    header: 'x-sellix-signature',
    algorithm: 'sha512',
    label: 'sellix',
    secret: (app) => app.sellixsecret,
    read: (payload) => {
      const data = obj(payload['data']);
      return { username: obj(data['custom_fields'])['username'], quantity: data['quantity'], product: data['product_id'] };
    },
  },
  shoppy: {
    header: 'x-shoppy-signature',
    algorithm: 'sha512',
    label: 'shoppy',
    secret: (app) => app.shoppysecret,
    read: (payload) => {
      const order = obj(obj(payload['data'])['order']);
      return { username: first(order['custom_fields'])['value'], quantity: order['quantity'], product: order['product_id'] };
    },
  },
  sellapp: {
    header: 'signature',
    algorithm: 'sha256',
    label: 'SellApp',
    secret: (app) => app.sellappsecret,
    read: (payload) => ({ username: first(payload['additional_information'])['value'], quantity: payload['quantity'], product: obj(payload['listing'])['slug'] }),
  },
};

/** The signature a shop sends for `body` under `secret` (also what `kactl reseller simulate-sale` sends). */
export function shopSignature(shop: ShopName, secret: string, body: string): string {
  return createHmac(SHOPS[shop].algorithm, secret).update(body, 'utf8').digest('hex');
}

const KEY_MASK = '******-******-******-******-******-******';

function text(body: string, status = 200): PageReply {
  return { status, contentType: 'text/plain; charset=utf-8', body, headers: { 'cache-control': 'no-store' } };
}

function shopOf(headers: IncomingHttpHeaders): ShopName | undefined {
  return (Object.keys(SHOPS) as ShopName[]).find((shop) => typeof headers[SHOPS[shop].header] === 'string');
}

function signatureMatches(expected: string, sent: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(sent.trim().toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The balance unit a product id of this shop stands for: each shop has its own ids. */
function productUnit(app: AppRow, shop: ShopName, product: string): BalanceUnit | undefined {
  return PRODUCT_UNITS.find((unit) => {
    const id = app[shopProductSetting(shop, unit)];
    return id !== null && id !== '' && id === product;
  });
}

function handleSale(ctx: PageContext, params: Params): PageReply {
  const shop = shopOf(ctx.request.headers);
  if (shop === undefined) return text("Request isn't coming from SellApp, Sellix, or Shoppy.");
  const rules = SHOPS[shop];
  const app = findAppBySecret(ctx.store, params.get('app') ?? '');
  if (app === undefined) return text('Failure: application not found');
  const secret = rules.secret(app);
  const body = ctx.request.body ?? '';
  const sent = String(ctx.request.headers[rules.header]);
  if (secret === null || secret === '' || !signatureMatches(shopSignature(shop, secret, body), sent)) {
    return text(`Failure: authentication with ${rules.label} secret failed`);
  }
  let payload: Record<string, unknown>;
  try {
    payload = obj(JSON.parse(body));
  } catch {
    return text('Failure: the payload is not JSON');
  }
  const sale = rules.read(payload);
  const username = typeof sale.username === 'string' ? sale.username : '';
  if (findAppReseller(ctx.store, app, username) === undefined) return text('Failure: No account with the supplied username under this application found');
  const quantity = Number(sale.quantity);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 100) return text('Failure: the quantity must be a whole number from 1 to 100');

  const expiry = params.get('expiry');
  if (expiry !== undefined) {
    const days = Number(expiry);
    if (!Number.isFinite(days) || days <= 0) return text('Failure: expiry must be a positive number of days');
    const made = generateLicenses(ctx.store, app.id, { mask: KEY_MASK, amount: quantity, level: params.get('level') ?? '1', genby: username, expires: Math.round(days * 86_400) }, ctx.now);
    if (!made.ok) return text(`Failure: ${made.message}`);
    ctx.log(`reseller sale via ${shop}: ${quantity} key(s) for ${username}`);
    return text(made.value.join('\r\n'));
  }
  const unit = productUnit(app, shop, typeof sale.product === 'string' || typeof sale.product === 'number' ? String(sale.product) : '');
  if (unit === undefined) return text(shop === 'sellapp' ? "You didn't set product URL in app settings." : "You didn't set product id in app settings.");
  addBalance(ctx.store, app.id, username, { [unit]: quantity });
  ctx.log(`reseller sale via ${shop}: ${quantity} ${unit} balance for ${username}`);
  return text('Success: Reseller Balance Increased');
}

export const resellerPages: readonly PageRoute[] = [
  { method: 'POST', path: '/api/reseller', acceptsJson: true, handle: handleSale },
  { method: 'GET', path: '/api/reseller', handle: handleSale },
];
