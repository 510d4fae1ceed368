/**
 * Schema version 2: the application settings the shop hook and the VPN block need.
 * - `shoppysecret`, `sellappsecret`: the other two shops' webhook secrets (Sellix's already existed).
 * - `dayproduct` … `lifetimeproduct`: shop product ids whose sale adds to a reseller's balance
 *   of that duration (the reseller shop endpoint without `expiry`).
 * - `vpnranges`: CIDRs, comma-separated, the sandbox treats as VPN or hosting addresses (it
 *   makes no online lookup).
 * - `users.hwidResetAt`: when the user last reset their HWID on the customer panel (the
 *   cooldown counts from it).
 */
export const SCHEMA_V2 = `
ALTER TABLE apps ADD COLUMN shoppysecret TEXT;
ALTER TABLE apps ADD COLUMN sellappsecret TEXT;
ALTER TABLE apps ADD COLUMN dayproduct TEXT;
ALTER TABLE apps ADD COLUMN weekproduct TEXT;
ALTER TABLE apps ADD COLUMN monthproduct TEXT;
ALTER TABLE apps ADD COLUMN lifetimeproduct TEXT;
ALTER TABLE apps ADD COLUMN vpnranges TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN hwidResetAt INTEGER;
`;
