/**
 * State kept in memory beside a store (counters, sign-ins, caches): one value per store, made on
 * first use and dropped with the store. Tests open many stores in one process; each gets its own.
 */
import type { Store } from './store.js';

export function perStore<V>(create: () => V): (store: Store) => V {
  const values = new WeakMap<Store, V>();
  return (store) => {
    let value = values.get(store);
    if (value === undefined) {
      value = create();
      values.set(store, value);
    }
    return value;
  };
}
