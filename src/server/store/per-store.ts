/**
 * State kept in memory beside a store (counters, sign-ins, caches): one value per store, made on
 * first use and dropped with the store. Tests open many stores in one process; each gets its own.
 */
import type { Store } from './store.js';

/** Every perStore table, so `forgetPerStore` reaches them all. */
const tables: WeakMap<Store, unknown>[] = [];

export function perStore<V>(create: () => V): (store: Store) => V {
  const values = new WeakMap<Store, V>();
  tables.push(values);
  return (store) => {
    let value = values.get(store);
    if (value === undefined) {
      value = create();
      values.set(store, value);
    }
    return value;
  };
}

/**
 * Drops what every table keeps beside `store`: its data was replaced wholesale (a snapshot
 * restored), so counters, sign-ins and cached values of the old data must not outlive it.
 */
export function forgetPerStore(store: Store): void {
  for (const table of tables) table.delete(store);
}
