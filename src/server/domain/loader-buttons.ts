/** Web-loader buttons (docs/protocol/seller-api.md §3.12): a label and a value, unique per app. */
import type { Store } from '../store/store.js';
import type { LoaderButtonRow } from './rows.js';

/** Adds a button. False when the value is taken. */
export function addLoaderButton(store: Store, appId: number, text: string, value: string): boolean {
  return store.run('INSERT OR IGNORE INTO loader_buttons (appId, text, value) VALUES (?, ?, ?)', appId, text, value).changes > 0;
}

export function deleteLoaderButton(store: Store, appId: number, value: string): boolean {
  return store.run('DELETE FROM loader_buttons WHERE appId = ? AND value = ?', appId, value).changes > 0;
}

export function deleteAllLoaderButtons(store: Store, appId: number): number {
  return store.run('DELETE FROM loader_buttons WHERE appId = ?', appId).changes;
}

export function listLoaderButtons(store: Store, appId: number): LoaderButtonRow[] {
  return store.all<LoaderButtonRow>('SELECT * FROM loader_buttons WHERE appId = ? ORDER BY id', appId);
}
