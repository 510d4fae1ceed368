/**
 * The shops a reseller buys balance through, and the product ids a seller stores for them: one
 * per shop and balance unit (SellApp: a listing slug), as on the real service. One list for the
 * CLI (`kactl app set --sellix-day-product`, state files, `reseller simulate-sale --unit`) and
 * the sandbox (its app columns, getsettings, the shop hook). No imports: the seller catalog,
 * which `--help` loads, reads it.
 */
export const SHOP_NAMES = ['sellix', 'shoppy', 'sellapp'] as const;
export type ShopName = (typeof SHOP_NAMES)[number];

/** The balance units a shop product can stand for. */
export const PRODUCT_UNITS = ['day', 'week', 'month', 'lifetime'] as const;
export type ProductUnit = (typeof PRODUCT_UNITS)[number];

/** The setting (wire name, getsettings field, sandbox column) holding a shop's product id for a unit. */
export type ShopProductSetting = `${ShopName}${ProductUnit}product`;

export function shopProductSetting(shop: ShopName, unit: ProductUnit): ShopProductSetting {
  return `${shop}${unit}product`;
}

/** Its name on the command line (`kactl app set --sellix-day-product`) and in a state file. */
export function shopProductFlag(shop: ShopName, unit: ProductUnit): string {
  return `${shop}-${unit}-product`;
}

export function isProductUnit(value: unknown): value is ProductUnit {
  return (PRODUCT_UNITS as readonly unknown[]).includes(value);
}

/** Every shop product setting, shop by shop, each in unit order. */
export const SHOP_PRODUCT_SETTINGS: readonly ShopProductSetting[] = SHOP_NAMES.flatMap((shop) => PRODUCT_UNITS.map((unit) => shopProductSetting(shop, unit)));
