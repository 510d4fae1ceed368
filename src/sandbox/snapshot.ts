/**
 * Snapshots of a running sandbox's store, and putting one back, while the server keeps serving
 * on the same connection (its prepared statements, its identity, its address stay).
 *
 * - Take: better-sqlite3's `serialize()`, a complete SQLite database image in a Buffer (under
 *   0.3 ms, bench/sandbox-snapshot.mjs). It is a valid database file as it is.
 * - Put back: the image is written to a private temporary file, ATTACHed, and every table of the
 *   store is emptied and refilled from it in one transaction (foreign keys checked at commit),
 *   then the file is detached and removed: about 4 ms for a fresh store, 18 ms with 2,000 keys.
 *   better-sqlite3 can load an image only into a new connection (`new Database(buffer)`), but
 *   the server holds this one. Copying the rows through JavaScript from such a connection is
 *   quicker on a nearly empty store (1 ms) and twice as slow at 2,000 keys (40 ms), and it makes
 *   a better-sqlite3 object per table and restore, which this process must keep for its whole
 *   life (native-handles.ts); SQLite's own INSERT … SELECT from an attached file makes none.
 *
 * The copy writes through the connection, so what is derived from the data moves with it (the
 * store's data stamps, the TEMP triggers that watch the apps table); what is kept in memory
 * beside the store (the clock offset, 2FA guess counts, panel sign-ins) is dropped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forgetPerStore } from '../server/store/per-store.js';
import type { Store } from '../server/store/store.js';

/** A complete image of the store. */
export function takeSnapshot(store: Store): Buffer {
  return store.db.serialize();
}

/** The store's tables in the order SQLite lists them (AUTOINCREMENT's counters apart). */
function tablesOf(store: Store, schema: string): string[] {
  // Through the store's cached statements: better-sqlite3 objects are kept for the life of the
  // process (native-handles.ts says why), so none is prepared per call.
  return store.all<{ name: string }>(`SELECT name FROM "${schema}".sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).map((row) => row.name);
}

/** Replaces the store's data with the image's, in one transaction. */
export function restoreSnapshot(store: Store, image: Uint8Array): void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-snapshot-'));
  const file = path.join(folder, 'snapshot.db');
  const db = store.db;
  try {
    fs.writeFileSync(file, image, { mode: 0o600 });
    // ATTACH takes a file name as an SQL string: quote it.
    db.exec(`ATTACH '${file.replace(/'/g, "''")}' AS kactl_snapshot`);
    try {
      const tables = tablesOf(store, 'main');
      const theirs = new Set(tablesOf(store, 'kactl_snapshot'));
      const missing = tables.filter((table) => !theirs.has(table));
      if (missing.length > 0) throw new Error(`The snapshot is not of this store's schema (it has no ${missing.join(', ')} table).`);
      const hasSequence = (schema: string): boolean => store.get(`SELECT 1 AS found FROM "${schema}".sqlite_master WHERE name = 'sqlite_sequence'`) !== undefined;
      store.tx(() => {
        db.exec('PRAGMA defer_foreign_keys = ON');
        for (const table of tables) db.exec(`DELETE FROM main."${table}"`);
        for (const table of tables) db.exec(`INSERT INTO main."${table}" SELECT * FROM kactl_snapshot."${table}"`);
        if (hasSequence('main')) {
          db.exec('DELETE FROM main.sqlite_sequence');
          if (hasSequence('kactl_snapshot')) db.exec('INSERT INTO main.sqlite_sequence SELECT * FROM kactl_snapshot.sqlite_sequence');
        }
      });
    } finally {
      db.exec('DETACH kactl_snapshot');
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  forgetPerStore(store);
}
