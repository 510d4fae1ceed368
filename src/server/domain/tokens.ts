/** Init tokens of the app's token system (docs/protocol/client-api.md §2.1, `token` and `thash` at init). */
import type { Store } from '../store/store.js';
import { randomHex } from './random.js';
import type { TokenRow } from './rows.js';

export function findToken(store: Store, appId: number, token: string): TokenRow | undefined {
  return store.get<TokenRow>('SELECT * FROM tokens WHERE appId = ? AND token = ?', appId, token);
}

/** Creates a token (32 hex characters unless given) assigned to a user or key. */
export function createToken(store: Store, appId: number, input: { assigned?: string | null; type?: 'user' | 'license'; token?: string }): TokenRow {
  const token = input.token ?? randomHex(16);
  store.run('INSERT INTO tokens (appId, token, assigned, type) VALUES (?, ?, ?, ?)', appId, token, input.assigned ?? null, input.type ?? 'user');
  const row = findToken(store, appId, token);
  if (row === undefined) throw new Error('Token vanished right after its insert');
  return row;
}

/** Records the first token-file hash seen; later inits must send the same one. */
export function setTokenHash(store: Store, tokenId: number, hash: string): void {
  store.run('UPDATE tokens SET hash = ? WHERE id = ? AND hash IS NULL', hash, tokenId);
}

export function banToken(store: Store, appId: number, token: string, reason: string): boolean {
  return store.run('UPDATE tokens SET banned = 1, reason = ? WHERE appId = ? AND token = ?', reason, appId, token).changes > 0;
}

export function unbanToken(store: Store, appId: number, token: string): boolean {
  return store.run("UPDATE tokens SET banned = 0, reason = 'Token is banned' WHERE appId = ? AND token = ?", appId, token).changes > 0;
}

export function deleteToken(store: Store, appId: number, token: string): boolean {
  return store.run('DELETE FROM tokens WHERE appId = ? AND token = ?', appId, token).changes > 0;
}

export function listTokens(store: Store, appId: number): TokenRow[] {
  return store.all<TokenRow>('SELECT * FROM tokens WHERE appId = ? ORDER BY id', appId);
}
