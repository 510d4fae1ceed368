/**
 * The sandbox's identity, kept in the `meta` table so a restart on the same data file keeps it:
 * the Ed25519 key pair that signs every 1.3 answer, and the admin token of /sandbox/outbox.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Store } from './store.js';

export interface SandboxIdentity {
  readonly privateKey: KeyObject;
  /** Raw 32-byte Ed25519 public key as 64 lower-case hex characters. */
  readonly publicKey: string;
  /** Bearer token for /sandbox/outbox (64 hex characters). */
  readonly adminToken: string;
}

const PRIVATE_KEY = 'ed25519PrivateKeyPkcs8';
const ADMIN_TOKEN = 'adminToken';

/** DER SPKI of an Ed25519 key is this 12-byte header followed by the raw 32-byte key. */
const ED25519_SPKI_HEADER_LENGTH = 12;

export function getMeta(store: Store, name: string): string | undefined {
  return store.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', name)?.value;
}

export function setMeta(store: Store, name: string, value: string): void {
  store.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', name, value);
}

/** Loads the identity, generating and storing it (once) on a new store. */
export function loadOrCreateIdentity(store: Store): SandboxIdentity {
  return store.tx(() => {
    let pkcs8 = getMeta(store, PRIVATE_KEY);
    if (pkcs8 === undefined) {
      const { privateKey } = generateKeyPairSync('ed25519');
      pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('hex');
      setMeta(store, PRIVATE_KEY, pkcs8);
    }
    let adminToken = getMeta(store, ADMIN_TOKEN);
    if (adminToken === undefined) {
      adminToken = randomBytes(32).toString('hex');
      setMeta(store, ADMIN_TOKEN, adminToken);
    }
    const privateKey = createPrivateKey({ key: Buffer.from(pkcs8, 'hex'), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    return { privateKey, publicKey: spki.subarray(ED25519_SPKI_HEADER_LENGTH).toString('hex'), adminToken };
  });
}
