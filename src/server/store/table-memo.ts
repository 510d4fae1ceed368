/**
 * Values read from one table, kept beside the store until that table is written: a lookup most
 * requests make (the app, the session, whether a name is a license key) then costs a map read
 * instead of a statement. The table's stamp (store.tableStamp: this connection's writes, and
 * another connection's commits) says when a kept value may be stale, and the memory starts again.
 *
 * Nothing is kept or read inside a transaction: a write there moves the stamp at once, but a
 * rollback would not move it back, and a value read from rows the rollback undid would stay.
 */
import { perStore } from './per-store.js';
import type { Store, WatchedTable } from './store.js';

/**
 * The memory of `table`: for a store, the values kept now (empty after the table was written,
 * or once `limit` of them are kept, so keys from outside cannot grow it without bound), or
 * undefined inside a transaction, where the caller reads the table itself and keeps nothing.
 */
export function tableMemo<V>(table: WatchedTable, limit: number): (store: Store) => Map<string, V> | undefined {
  const memos = perStore((): { stamp: string | undefined; readonly values: Map<string, V> } => ({ stamp: undefined, values: new Map() }));
  return (store) => {
    if (store.db.inTransaction) return undefined;
    const memo = memos(store);
    const stamp = store.tableStamp(table);
    if (memo.stamp !== stamp || memo.values.size >= limit) {
      memo.stamp = stamp;
      memo.values.clear();
    }
    return memo.values;
  };
}
