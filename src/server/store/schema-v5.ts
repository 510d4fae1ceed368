/**
 * Schema version 5: the sales the reseller shop hook has processed, one row per app, shop and
 * the shop's own sale id (Sellix `uniqid`, Shoppy order `id`, SellApp `id`). A delivery whose sale
 * is already here is answered without minting again: a replayed signed body (or a shop's retry)
 * credits the reseller once.
 *
 * Assumes version 4; it adds a table and touches nothing else.
 */
export const SCHEMA_V5 = `
CREATE TABLE shop_sales (
  appId       INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  shop        TEXT NOT NULL,                -- sellix, shoppy, sellapp
  saleId      TEXT NOT NULL,
  reseller    TEXT NOT NULL,
  made        TEXT NOT NULL,                -- keys or balance
  quantity    INTEGER NOT NULL,
  processedAt INTEGER NOT NULL,
  PRIMARY KEY (appId, shop, saleId)
);
`;
