/** Counting a store's transactions (tests of what opens one on the request path). */
import type { Store } from '../../../src/server/store/store.js';

/** Counts the store's transactions from now on (`store.tx` calls). */
export function countTransactions(store: Store): { count: number } {
  const counted = { count: 0 };
  const tx = store.tx.bind(store);
  (store as { tx: Store['tx'] }).tx = (fn) => {
    counted.count += 1;
    return tx(fn);
  };
  return counted;
}
