/**
 * Schema version 6: the request inspector's records (src/server/inspector/), the last N requests
 * the sandbox served (`sandbox start --log-limit`), so they survive a restart and a detached
 * sandbox's can be read (`kactl sandbox logs`). Secrets in `params`, `path`, `message` and
 * `reason` are masked before a row is written. AUTOINCREMENT: an id is never reused after the
 * oldest rows are trimmed, so a reader's `after=<id>` stays right.
 *
 * Assumes version 5; it adds a table and touches nothing else.
 */
export const SCHEMA_V6 = `
CREATE TABLE request_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,             -- real time the request arrived, ms since the epoch
  api         TEXT NOT NULL,                -- 1.3, 1.2, seller, page, admin, other
  type        TEXT,                         -- the API type, the page's path pattern, the admin route
  method      TEXT NOT NULL,
  path        TEXT NOT NULL,                -- page tokens masked
  ip          TEXT NOT NULL,
  user        TEXT,
  params      TEXT NOT NULL,                -- JSON object, secrets masked
  status      INTEGER NOT NULL,
  success     INTEGER,                      -- 1 / 0
  message     TEXT,
  reason      TEXT,
  durationMs  REAL NOT NULL
);
`;
