/**
 * Migration 1: every entity of the data models in docs/protocol/client-api.md §7 and docs/protocol/seller-api.md §4.
 *
 * Conventions: times are Unix seconds (INTEGER); flags are 0/1 INTEGER; every app-scoped row has
 * `appId` and goes when its app goes (ON DELETE CASCADE). Column names are the wire names where
 * the protocol has one (`createdate`, `usedby`, `genby`, ...) and camelCase otherwise, so rows
 * map to answers without renaming. Users own their subscriptions and variables by id, so a
 * rename needs no cascade there; text references the protocol keeps by name (chat author,
 * license `usedby`, mutes) are updated by the rename itself.
 */
export const SCHEMA_V1 = `
-- Facts about the sandbox itself: its Ed25519 key pair, its admin token.
CREATE TABLE meta (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE apps (
  id                   INTEGER PRIMARY KEY,
  name                 TEXT NOT NULL,
  ownerid              TEXT NOT NULL,
  secret               TEXT NOT NULL UNIQUE,
  sellerKey            TEXT NOT NULL UNIQUE,
  owner                TEXT NOT NULL,             -- owner account username (panel link, check role)
  enabled              INTEGER NOT NULL DEFAULT 1,
  banned               INTEGER NOT NULL DEFAULT 0,
  paused               INTEGER NOT NULL DEFAULT 0,
  hwidcheck            INTEGER NOT NULL DEFAULT 1,
  vpnblock             INTEGER NOT NULL DEFAULT 0,
  ver                  TEXT NOT NULL DEFAULT '1.0',
  download             TEXT,
  webdownload          TEXT,
  webhook              TEXT,                      -- Discord webhook for client logs
  resellerstore        TEXT,
  sellixsecret         TEXT,
  hash                 TEXT,                      -- concatenated program MD5s
  hashcheck            INTEGER NOT NULL DEFAULT 0,
  sessionLength        INTEGER NOT NULL DEFAULT 21600,
  forceEncryption      INTEGER NOT NULL DEFAULT 0,
  forceHwid            INTEGER NOT NULL DEFAULT 1,
  minHwid              INTEGER NOT NULL DEFAULT 20,
  minUsernameLength    INTEGER NOT NULL DEFAULT 1,
  blockLeakedPasswords INTEGER NOT NULL DEFAULT 0,
  tokensystem          INTEGER NOT NULL DEFAULT 0,
  killOtherSessions    INTEGER NOT NULL DEFAULT 0,
  cooldown             INTEGER NOT NULL DEFAULT 604800,  -- default HWID-reset cooldown, seconds
  createdAt            INTEGER NOT NULL,
  UNIQUE (name, ownerid)
);

-- The configurable client messages (docs/protocol/client-api.md §5.4), one row per app and key.
CREATE TABLE app_messages (
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  key   TEXT NOT NULL,
  text  TEXT NOT NULL,
  PRIMARY KEY (appId, key)
) WITHOUT ROWID;

-- Dashboard accounts: the seller owning apps, and the reseller / manager accounts of an app.
CREATE TABLE accounts (
  id           INTEGER PRIMARY KEY,
  username     TEXT NOT NULL UNIQUE,
  emailHash    TEXT UNIQUE,                  -- SHA-1 of the lower-cased address
  passwordHash TEXT,
  role         TEXT NOT NULL,                -- seller, Reseller, Manager, tester, developer
  appId        INTEGER REFERENCES apps(id) ON DELETE CASCADE,  -- null for a seller
  owner        TEXT,                         -- seller who created this account
  balance      TEXT NOT NULL DEFAULT '0|0|0|0|0|0|0',  -- day|week|month|threemonth|sixmonth|lifetime|year
  keylevels    TEXT NOT NULL DEFAULT 'N/A',
  perms        INTEGER NOT NULL DEFAULT 2047,
  createdAt    INTEGER NOT NULL
);

-- Subscription definitions: a license's level grants the subscriptions of that level.
CREATE TABLE subscriptions (
  id    INTEGER PRIMARY KEY,
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name  TEXT NOT NULL,
  level TEXT NOT NULL,
  UNIQUE (appId, name)
);
CREATE INDEX subscriptions_level ON subscriptions (appId, level, id);

CREATE TABLE users (
  id           INTEGER PRIMARY KEY,
  appId        INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  username     TEXT NOT NULL,
  emailHash    TEXT,                         -- SHA-1 of the lower-cased address, never the address
  passwordHash TEXT,                         -- scrypt; null = set by the next login
  hwid         TEXT,                         -- one or several concatenated HWIDs
  ip           TEXT,
  owner        TEXT,                         -- who created the user (key creator, SellerAPI, ...)
  createdate   INTEGER NOT NULL,
  lastlogin    INTEGER,
  banned       TEXT,                         -- ban reason; null = not banned
  cooldown     INTEGER,                      -- HWID-reset cooldown, seconds
  twofaSecret  TEXT,                         -- base32 TOTP secret once 2FA is enabled
  twofaEnabled INTEGER NOT NULL DEFAULT 0,
  UNIQUE (appId, username)
);
CREATE INDEX users_email ON users (appId, emailHash);

-- A user's subscriptions. While paused, expiry holds the remaining seconds instead of a time.
CREATE TABLE user_subs (
  id           INTEGER PRIMARY KEY,
  appId        INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  userId       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscription TEXT NOT NULL,
  expiry       INTEGER NOT NULL,
  paused       INTEGER NOT NULL DEFAULT 0,
  key          TEXT                          -- license that granted it; null for upgrade / seller
);
CREATE INDEX user_subs_user ON user_subs (userId, id);
CREATE INDEX user_subs_key ON user_subs (appId, key);

CREATE TABLE licenses (
  id      INTEGER PRIMARY KEY,
  appId   INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  key     TEXT NOT NULL,
  note    TEXT,
  expires INTEGER NOT NULL,                  -- duration in seconds, turned into a date on use
  status  TEXT NOT NULL DEFAULT 'Not Used' CHECK (status IN ('Not Used', 'Used', 'Banned', 'Paused')),
  level   TEXT NOT NULL DEFAULT '1',
  genby   TEXT,
  gendate INTEGER NOT NULL,
  usedon  INTEGER,
  usedby  TEXT,
  banned  TEXT,                              -- ban reason
  UNIQUE (appId, key)
);
CREATE INDEX licenses_usedby ON licenses (appId, usedby);

CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  appId      INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  credential TEXT,                           -- username once validated
  validated  INTEGER NOT NULL DEFAULT 0,
  expiry     INTEGER NOT NULL,
  createdAt  INTEGER NOT NULL,
  enckey     TEXT,                           -- the client's init enckey (HMAC key is enckey-secret)
  ip         TEXT,
  api        TEXT NOT NULL                   -- API version of the init: 1.2 or 1.3
);
CREATE INDEX sessions_app ON sessions (appId, expiry);

-- Global ("app") variables.
CREATE TABLE vars (
  id     INTEGER PRIMARY KEY,
  appId  INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  varid  TEXT NOT NULL,
  msg    TEXT NOT NULL,
  authed INTEGER NOT NULL DEFAULT 1,
  UNIQUE (appId, varid)
);

CREATE TABLE user_vars (
  id       INTEGER PRIMARY KEY,
  appId    INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  userId   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  data     TEXT NOT NULL,
  readOnly INTEGER NOT NULL DEFAULT 0,
  UNIQUE (userId, name)
);
CREATE INDEX user_vars_name ON user_vars (appId, name);

CREATE TABLE chat_channels (
  id    INTEGER PRIMARY KEY,
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name  TEXT NOT NULL,
  delay INTEGER NOT NULL DEFAULT 0,          -- seconds between two messages of one user
  UNIQUE (appId, name)
);

CREATE TABLE chat_messages (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  appId     INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  channelId INTEGER NOT NULL REFERENCES chat_channels(id) ON DELETE CASCADE,
  author    TEXT NOT NULL,
  message   TEXT NOT NULL,
  timestamp INTEGER NOT NULL
);
CREATE INDEX chat_messages_channel ON chat_messages (channelId, id);
CREATE INDEX chat_messages_author ON chat_messages (channelId, author, id);

CREATE TABLE chat_mutes (
  id    INTEGER PRIMARY KEY,
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  user  TEXT NOT NULL,
  time  INTEGER NOT NULL,                    -- muted until
  UNIQUE (appId, user)
);

CREATE TABLE webhooks (
  id        INTEGER PRIMARY KEY,
  appId     INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  webid     TEXT NOT NULL,
  baselink  TEXT NOT NULL,
  useragent TEXT NOT NULL DEFAULT 'KeyAuth',
  authed    INTEGER NOT NULL DEFAULT 1,
  UNIQUE (appId, webid)
);

CREATE TABLE files (
  pk         INTEGER PRIMARY KEY,
  appId      INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  id         TEXT NOT NULL,                  -- 6 digits
  name       TEXT NOT NULL,
  url        TEXT NOT NULL,
  size       TEXT NOT NULL,                  -- human-readable, e.g. 1.5 MB
  uploaddate INTEGER NOT NULL,
  authed     INTEGER NOT NULL DEFAULT 1,
  UNIQUE (appId, id)
);

CREATE TABLE blacklists (
  id      INTEGER PRIMARY KEY,
  appId   INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  type    TEXT NOT NULL CHECK (type IN ('ip', 'hwid', 'region', 'country', 'asn')),
  hwid    TEXT,
  ip      TEXT,
  region  TEXT,
  country TEXT,
  asn     TEXT
);
CREATE INDEX blacklists_hwid ON blacklists (appId, hwid);
CREATE INDEX blacklists_ip ON blacklists (appId, ip);

-- IPs exempt from the VPN block.
CREATE TABLE whitelists (
  id    INTEGER PRIMARY KEY,
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  ip    TEXT NOT NULL,
  UNIQUE (appId, ip)
);

CREATE TABLE logs (
  id         INTEGER PRIMARY KEY,
  appId      INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  logdate    INTEGER NOT NULL,
  logdata    TEXT NOT NULL,
  credential TEXT,
  pcuser     TEXT
);
CREATE INDEX logs_app ON logs (appId, id);

-- Init tokens of the app's token system (docs/protocol/client-api.md §2.1).
CREATE TABLE tokens (
  id       INTEGER PRIMARY KEY,
  appId    INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  token    TEXT NOT NULL,
  assigned TEXT,                             -- user or key it belongs to
  type     TEXT NOT NULL DEFAULT 'user' CHECK (type IN ('user', 'license')),
  banned   INTEGER NOT NULL DEFAULT 0,
  reason   TEXT NOT NULL DEFAULT 'Token is banned',
  hash     TEXT,                             -- first thash seen
  UNIQUE (appId, token)
);

CREATE TABLE loader_buttons (
  id    INTEGER PRIMARY KEY,
  appId INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  text  TEXT NOT NULL,
  value TEXT NOT NULL,
  UNIQUE (appId, value)
);

-- 2FA secrets handed out by the first 2faenable call, waiting for their confirming code.
CREATE TABLE pending_2fa (
  userId    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret    TEXT NOT NULL,
  expiresAt INTEGER NOT NULL
);

CREATE TABLE magic_links (
  token     TEXT PRIMARY KEY,
  appId     INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  userId    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sessionId TEXT NOT NULL,
  hwid      TEXT,
  state     TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'used', 'expired')),
  createdAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL
);
CREATE INDEX magic_links_session ON magic_links (sessionId);

CREATE TABLE email_codes (
  id        INTEGER PRIMARY KEY,
  appId     INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  userId    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  codeHash  TEXT NOT NULL,
  tries     INTEGER NOT NULL DEFAULT 0,
  used      INTEGER NOT NULL DEFAULT 0,
  createdAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL
);
CREATE INDEX email_codes_user ON email_codes (userId, id);

CREATE TABLE password_resets (
  secret    TEXT PRIMARY KEY,                -- 32 hex
  appId     INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  emailHash TEXT NOT NULL,
  username  TEXT NOT NULL,
  createdAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL,
  used      INTEGER NOT NULL DEFAULT 0
);

-- Mail the real service would send, kept for GET /sandbox/outbox.
CREATE TABLE outbox (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  appId     INTEGER REFERENCES apps(id) ON DELETE SET NULL,
  kind      TEXT NOT NULL,                   -- magic-link, email-code, password-reset, ...
  recipient TEXT NOT NULL,
  subject   TEXT NOT NULL,
  text      TEXT NOT NULL,
  link      TEXT,                            -- the link to open (magic link, password reset)
  data      TEXT NOT NULL DEFAULT '{}',      -- JSON: code, token... for scripts
  createdAt INTEGER NOT NULL
);
`;
