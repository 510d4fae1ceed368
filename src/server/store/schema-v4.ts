/**
 * Schema version 4: one set of reseller product ids per shop, as the real service keeps them
 * (a Sellix product id, a Shoppy product id and a SellApp listing slug are different strings).
 * The shared `dayproduct` … `lifetimeproduct` of version 2 are copied into each shop's columns,
 * so a store that used them keeps working for every shop, and then dropped.
 *
 * Assumes version 3 (team accounts scoped per app) exists; it touches no column that one does.
 */
const SHOPS = ['sellix', 'shoppy', 'sellapp'] as const;
const UNITS = ['day', 'week', 'month', 'lifetime'] as const;

export const SCHEMA_V4 = [
  ...SHOPS.flatMap((shop) => UNITS.map((unit) => `ALTER TABLE apps ADD COLUMN ${shop}${unit}product TEXT;`)),
  `UPDATE apps SET ${SHOPS.flatMap((shop) => UNITS.map((unit) => `${shop}${unit}product = ${unit}product`)).join(', ')};`,
  ...UNITS.map((unit) => `ALTER TABLE apps DROP COLUMN ${unit}product;`),
].join('\n');
