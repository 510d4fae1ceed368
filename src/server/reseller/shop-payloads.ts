/**
 * What the reseller shop hook reads from each shop's delivery (docs/protocol/seller-api.md
 * §3.15): the header that signs the raw JSON body with the secret the seller stored (Sellix
 * `X-Sellix-Signature` and Shoppy `X-Shoppy-Signature` are HMAC-SHA512 hex, SellApp `Signature`
 * HMAC-SHA256 hex), and from the signed payload the sale id, the reseller (a custom field), the
 * quantity and the product id. Nothing the hook acts on comes from outside the signed body but
 * the app's own settings.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ShopName } from '../../api/seller-catalog/shop-products.js';
import type { AppRow } from '../domain/rows.js';
import { ownValue } from '../../util/own.js';

/** The fields of a sale, as found in the payload (types unchecked). */
export interface SaleFields {
  readonly saleId: unknown;
  readonly username: unknown;
  readonly quantity: unknown;
  readonly product: unknown;
}

interface ShopRules {
  readonly header: string;
  readonly algorithm: 'sha512' | 'sha256';
  readonly label: string;
  readonly secret: (app: AppRow) => string | null;
  /** Where each field sits in this shop's payload. */
  readonly read: (payload: Record<string, unknown>) => SaleFields;
  /** Where the sale id sits, for the refusal that names it. */
  readonly saleIdField: string;
}

const obj = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const first = (value: unknown): Record<string, unknown> => obj(Array.isArray(value) ? value[0] : undefined);
/** An own property only: a payload key named like an Object.prototype member is just absent. */
const field = (record: Record<string, unknown>, name: string): unknown => ownValue(record, name);

export const SHOPS: Readonly<Record<ShopName, ShopRules>> = {
  sellix: {
    header: 'x-sellix-signature',
    algorithm: 'sha512',
    label: 'sellix',
    secret: (app) => app.sellixsecret,
    saleIdField: 'data.uniqid',
    read: (payload) => {
      const data = obj(field(payload, 'data'));
      return { saleId: field(data, 'uniqid'), username: field(obj(field(data, 'custom_fields')), 'username'), quantity: field(data, 'quantity'), product: field(data, 'product_id') };
    },
  },
  shoppy: {
    header: 'x-shoppy-signature',
    algorithm: 'sha512',
    label: 'shoppy',
    secret: (app) => app.shoppysecret,
    saleIdField: 'data.order.id',
    read: (payload) => {
      const order = obj(field(obj(field(payload, 'data')), 'order'));
      return { saleId: field(order, 'id'), username: field(first(field(order, 'custom_fields')), 'value'), quantity: field(order, 'quantity'), product: field(order, 'product_id') };
    },
  },
  sellapp: {
    header: 'signature',
    algorithm: 'sha256',
    label: 'SellApp',
    secret: (app) => app.sellappsecret,
    saleIdField: 'id',
    read: (payload) => ({
      saleId: field(payload, 'id'),
      username: field(first(field(payload, 'additional_information')), 'value'),
      quantity: field(payload, 'quantity'),
      product: field(obj(field(payload, 'listing')), 'slug'),
    }),
  },
};

/** The signature a shop sends for `body` under `secret` (also what `kactl reseller simulate-sale` sends). */
export function shopSignature(shop: ShopName, secret: string, body: string): string {
  return createHmac(SHOPS[shop].algorithm, secret).update(body, 'utf8').digest('hex');
}

/** The shop whose signature header the request carries. */
export function shopOf(headers: IncomingHttpHeaders): ShopName | undefined {
  return (Object.keys(SHOPS) as ShopName[]).find((shop) => typeof headers[SHOPS[shop].header] === 'string');
}

export function signatureMatches(expected: string, sent: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(sent.trim().toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Longest sale id kept (the shops' ids are far shorter). */
const MAX_SALE_ID_LENGTH = 128;

/** The sale id as text: a non-empty printable string, or a whole number; else undefined. */
export function saleIdOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id !== '' && id.length <= MAX_SALE_ID_LENGTH && /^[\x21-\x7e]+$/.test(id) ? id : undefined;
}

/**
 * The quantity: a JSON number that is a whole number from 1 to `max`; nothing else (`true`,
 * `[3]`, `"0x10"`, `"1e2"`, `2.5`) is read as one.
 */
export function saleQuantity(value: unknown, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : undefined;
}
