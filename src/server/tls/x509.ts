/**
 * @peculiar/x509, loaded the first time a certificate is made: certificates are DER built from
 * its typed ASN.1 schemas, never by hand. The library resolves its parts through tsyringe,
 * which needs the Reflect metadata API before it is loaded, so the polyfill is imported first
 * (two awaited imports keep that order in the bundle too). Signing runs on node's WebCrypto.
 */
import { webcrypto } from 'node:crypto';
import type * as X509Namespace from '@peculiar/x509';

export type X509Module = typeof X509Namespace;

let loaded: Promise<X509Module> | undefined;

export function loadX509(): Promise<X509Module> {
  loaded ??= (async () => {
    await import('reflect-metadata');
    const imported = (await import('@peculiar/x509')) as unknown as Partial<X509Module> & { default?: X509Module };
    // Its ESM build as node loads it, or the CommonJS one the bundle wraps (under `default`).
    const x509 = (imported.cryptoProvider === undefined && imported.default !== undefined ? imported.default : imported) as X509Module;
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  })();
  return loaded;
}

/** ECDSA on P-256 with SHA-256: quick to make, and accepted by every TLS stack an SDK runs on. */
export const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A positive serial number of 16 random bytes, as hex (the top bit clear keeps it positive in DER). */
export function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}
