/**
 * Schema version 3: team accounts belong to their app. v1 made `accounts.username` and
 * `accounts.emailHash` unique across the whole store, so "Username already taken!" told one
 * app's seller which names another app's team uses. Now a team account's username and email are
 * unique within its app, and a seller account's (no app) among sellers.
 *
 * SQLite cannot drop a column's UNIQUE, so the table is rebuilt: same columns in the same order,
 * every row copied with its id (existing rows were unique store-wide, so they satisfy the
 * narrower rule). Nothing references `accounts`, so dropping the old table cascades nowhere.
 */
export const SCHEMA_V3 = `
CREATE TABLE accounts_v3 (
  id           INTEGER PRIMARY KEY,
  username     TEXT NOT NULL,
  emailHash    TEXT,                         -- SHA-1 of the lower-cased address
  passwordHash TEXT,
  role         TEXT NOT NULL,                -- seller, Reseller, Manager, tester, developer
  appId        INTEGER REFERENCES apps(id) ON DELETE CASCADE,  -- null for a seller
  owner        TEXT,                         -- seller who created this account
  balance      TEXT NOT NULL DEFAULT '0|0|0|0|0|0|0',  -- day|week|month|threemonth|sixmonth|lifetime|year
  keylevels    TEXT NOT NULL DEFAULT 'N/A',
  perms        INTEGER NOT NULL DEFAULT 2047,
  createdAt    INTEGER NOT NULL
);
INSERT INTO accounts_v3 (id, username, emailHash, passwordHash, role, appId, owner, balance, keylevels, perms, createdAt)
  SELECT id, username, emailHash, passwordHash, role, appId, owner, balance, keylevels, perms, createdAt FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_v3 RENAME TO accounts;
-- NULLs never clash in a UNIQUE index, so sellers (appId NULL) get their own partial indexes.
CREATE UNIQUE INDEX accounts_team_username ON accounts (appId, username) WHERE appId IS NOT NULL;
CREATE UNIQUE INDEX accounts_team_email ON accounts (appId, emailHash) WHERE appId IS NOT NULL;
CREATE UNIQUE INDEX accounts_seller_username ON accounts (username) WHERE appId IS NULL;
CREATE UNIQUE INDEX accounts_seller_email ON accounts (emailHash) WHERE appId IS NULL;
`;
