/**
 * A shop's sale notification as Sellix, Shoppy and SellApp send it to the reseller hook
 * (docs/protocol/seller-api.md §3.15): the JSON body each shop posts and the header that signs
 * it (HMAC of the exact body with the seller's webhook secret; SHA-512 for Sellix and Shoppy,
 * SHA-256 for SellApp). Only the fields the hook reads are filled in, the sale's own id among
 * them: the sandbox processes each sale id once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { ShopName } from './seller-catalog/shop-products.js';

export interface Sale {
  readonly reseller: string;
  readonly product: string;
  readonly quantity: number;
  /** The shop's id of the sale; default: a new random one, so each simulated sale is new. */
  readonly id?: string;
}

const SIGNING: Readonly<Record<ShopName, { header: string; algorithm: 'sha512' | 'sha256' }>> = {
  sellix: { header: 'X-Sellix-Signature', algorithm: 'sha512' },
  shoppy: { header: 'X-Shoppy-Signature', algorithm: 'sha512' },
  sellapp: { header: 'Signature', algorithm: 'sha256' },
};

function payload(shop: ShopName, sale: Sale, id: string): unknown {
  switch (shop) {
    case 'sellix':
      return { event: 'order:paid', data: { uniqid: id, product_id: sale.product, quantity: sale.quantity, custom_fields: { username: sale.reseller } } };
    case 'shoppy':
      return { event: 'order:paid', data: { order: { id, product_id: sale.product, quantity: sale.quantity, custom_fields: [{ name: 'username', value: sale.reseller }] } } };
    case 'sellapp':
      return { id, quantity: sale.quantity, listing: { slug: sale.product }, additional_information: [{ label: 'username', value: sale.reseller }] };
  }
}

/** The body and headers a shop sends for `sale`, signed with `secret`. */
export function signedSale(shop: ShopName, secret: string, sale: Sale): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload(shop, sale, sale.id ?? `kactl-${randomBytes(8).toString('hex')}`));
  const { header, algorithm } = SIGNING[shop];
  const signature = createHmac(algorithm, secret).update(body, 'utf8').digest('hex');
  return { body, headers: { 'content-type': 'application/json', [header]: signature } };
}
