/**
 * The sandbox's one store: a better-sqlite3 connection plus the few helpers every domain
 * function uses (cached prepared statements, one transaction per change of state).
 *
 * better-sqlite3 is synchronous: a statement or a whole transaction runs to completion before
 * any other JavaScript does. So "read, check, write" inside `store.tx()` can never interleave
 * with another request; that is what makes the concurrency rules (one key, one user) hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';
import { pragma, retain } from './native-handles.js';
import { makeDir } from '../../util/make-dir.js';

/** A value SQLite can bind. Booleans are not bindable: store 0/1. */
export type SqlValue = string | number | bigint | null | Buffer;
/** Positional values, or one object for `@name` placeholders. */
export type SqlArgs = readonly SqlValue[] | readonly [Readonly<Record<string, SqlValue>>];

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
  readonly lastInsertRowid: number;
}

export interface Store {
  /** The raw connection, for the rare case the helpers below do not fit. */
  readonly db: Database.Database;
  /** `':memory:'` or the absolute path of the data file. */
  readonly location: string;
  /** First row of `sql`, or undefined. The statement is prepared once and cached. */
  get<R>(sql: string, ...args: SqlArgs): R | undefined;
  /** All rows of `sql`. */
  all<R>(sql: string, ...args: SqlArgs): R[];
  /** Runs a write statement. */
  run(sql: string, ...args: SqlArgs): RunResult;
  /**
   * Runs `fn` inside one transaction (BEGIN IMMEDIATE) and returns its result; a throw rolls
   * everything back. Nested calls become savepoints of the outer transaction. `fn` must be
   * synchronous: an `await` inside would let other requests run in the middle of it.
   */
  tx<T>(fn: () => T): T;
  /**
   * A value that changes whenever the data may have changed: SQLite's count of rows this
   * connection has written (a rolled-back change still moves it) and, for a file, `data_version`
   * (another connection's commit to the same file). It keys in-memory copies of what is derived
   * from the data (domain/apps.ts, seller/list-cache.ts). Well under 1 µs in memory, ~2 µs on a file.
   */
  dataStamp(): string;
  /**
   * Like dataStamp, for the rows of one table only: it moves when that table is written (by this
   * connection, through any statement, rolled back or not; or by another connection's commit to
   * the file) and not when other tables are. The client API keeps the app row with it, so the
   * session an `init` writes does not make the next request read the wide app row again.
   */
  tableStamp(table: WatchedTable): string;
  /** Closes the connection (checkpoints the WAL). Safe to call twice. */
  close(): void;
}

/** The tables `tableStamp` follows. */
export type WatchedTable = 'apps' | 'licenses' | 'sessions';
/**
 * The writes each watched table counts. `sessions` counts only changes to rows already there
 * (UPDATE, DELETE): its stamp guards rows found before (domain/sessions.ts), which an INSERT of a
 * new id, every `init`, cannot change, so an init costs no call into JavaScript.
 */
const WATCHED_TABLES: Readonly<Record<WatchedTable, readonly string[]>> = {
  apps: ['INSERT', 'UPDATE', 'DELETE'],
  licenses: ['INSERT', 'UPDATE', 'DELETE'],
  sessions: ['UPDATE', 'DELETE'],
};

export interface OpenStoreOptions {
  /** Milliseconds a statement waits for another connection's write lock (default 5000). */
  busyTimeoutMs?: number;
}

/** Opens (creating when needed) the store at `location` and brings its schema up to date. */
export function openStore(location: string, options: OpenStoreOptions = {}): Store {
  const memory = location === ':memory:';
  const resolved = memory ? location : path.resolve(location);
  if (!memory) prepareDataFile(resolved);
  const db = retain(new Database(resolved, { timeout: options.busyTimeoutMs ?? 5000 }));
  try {
    // WAL: readers never block the writer, and a commit is one append to the -wal file.
    pragma(db, 'journal_mode = WAL');
    // NORMAL instead of FULL: in WAL mode a commit's pages are written (write(2)) to the WAL
    // before COMMIT returns; only the fsync is deferred to checkpoints. Once written they sit in
    // the OS page cache, which survives the death of this process, so a SIGKILL after a write
    // was acknowledged loses nothing. Only an OS crash or power cut can drop the last commits,
    // which is an acceptable trade for a local test server and much faster than FULL.
    pragma(db, 'synchronous = NORMAL');
    pragma(db, 'foreign_keys = ON');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return createStore(db, resolved);
}

/** The data file holds secrets (seller key, app secret, signing key): keep it private. */
function prepareDataFile(file: string): void {
  makeDir(path.dirname(file));
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
}

function createStore(db: Database.Database, location: string): Store {
  const cache = new Map<string, Database.Statement<unknown[]>>();
  const prepare = (sql: string): Database.Statement<unknown[]> => {
    let stmt = cache.get(sql);
    if (stmt === undefined) {
      stmt = retain(db.prepare<unknown[]>(sql));
      cache.set(sql, stmt);
    }
    return stmt;
  };
  // Made once: `db.transaction(fn)` builds four wrapper functions per call (~6 µs), a request's
  // worth of work for init. This one runs whatever it is given, with the same BEGIN/SAVEPOINT rules.
  const transaction = db.transaction(<T>(fn: () => T): T => fn());
  const totalChanges = retain(db.prepare<[], number>('SELECT total_changes()').pluck());
  // Another connection's commit only shows in data_version. A private in-memory database has no
  // other connection, and reading data_version of a file takes a read lock (~2 µs a request).
  const dataVersion = location === ':memory:' ? undefined : retain(db.prepare<[], number>('PRAGMA data_version').pluck());
  const tableWrites = watchTables(db);
  /** This connection's count of writes, with another connection's commits when the file can have any. */
  const stampOf = (writes: number): string => (dataVersion === undefined ? String(writes) : `${writes}:${dataVersion.get()}`);
  return {
    db,
    location,
    get: <R>(sql: string, ...args: SqlArgs) => prepare(sql).get(...args) as R | undefined,
    all: <R>(sql: string, ...args: SqlArgs) => prepare(sql).all(...args) as R[],
    run: (sql: string, ...args: SqlArgs) => {
      const result = prepare(sql).run(...args);
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    tx: <T>(fn: () => T): T => transaction.immediate(fn) as T,
    dataStamp: () => stampOf(totalChanges.get() ?? 0),
    tableStamp: (table: WatchedTable) => stampOf(tableWrites[table]),
    close: () => {
      if (db.open) db.close();
    },
  };
}

/**
 * Counts the rows written to each watched table, whatever statement writes them: TEMP triggers
 * (this connection only, never stored in the file) call back into JavaScript for every row
 * inserted, updated or deleted. Made at open, outside any transaction, so no rollback can undo them.
 */
function watchTables(db: Database.Database): Record<WatchedTable, number> {
  const writes: Record<WatchedTable, number> = { apps: 0, licenses: 0, sessions: 0 };
  db.function('kactl_table_written', { deterministic: false }, (table: unknown) => {
    writes[table as WatchedTable] += 1;
    return null;
  });
  for (const [table, events] of Object.entries(WATCHED_TABLES)) {
    for (const event of events) {
      db.exec(`CREATE TEMP TRIGGER kactl_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN SELECT kactl_table_written('${table}'); END`);
    }
  }
  return writes;
}
