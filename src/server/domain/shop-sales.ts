/**
 * Sales the reseller shop hook has processed (schema v5), so that each is processed once: a
 * replayed delivery, or a shop's retry, finds its sale here and mints nothing.
 */
import type { Store } from '../store/store.js';

export interface ShopSale {
  readonly appId: number;
  readonly shop: string;
  readonly saleId: string;
  readonly reseller: string;
  readonly made: 'keys' | 'balance';
  readonly quantity: number;
  readonly processedAt: number;
}

export function findShopSale(store: Store, appId: number, shop: string, saleId: string): ShopSale | undefined {
  return store.get<ShopSale>('SELECT * FROM shop_sales WHERE appId = ? AND shop = ? AND saleId = ?', appId, shop, saleId);
}

/** Records a processed sale; run it in the transaction that mints for it. */
export function recordShopSale(store: Store, sale: Omit<ShopSale, 'processedAt'>, now: number): void {
  store.run(
    'INSERT INTO shop_sales (appId, shop, saleId, reseller, made, quantity, processedAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
    sale.appId, sale.shop, sale.saleId, sale.reseller, sale.made, sale.quantity, now,
  );
}
