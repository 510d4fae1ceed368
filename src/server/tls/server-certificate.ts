/**
 * The HTTPS sandbox's own certificate, made at every start and kept in memory only: its key
 * never touches the disk, a new host name needs no cache to invalidate, and making one costs a
 * few milliseconds (an ECDSA key and one signature). It names the chosen host name, `localhost`,
 * `127.0.0.1` and `::1` (and the bound address, when that is another one), and is signed by the
 * data folder's authority (authority.ts), which is what clients trust.
 */
import { isIP } from 'node:net';
import { webcrypto } from 'node:crypto';
import type { Authority } from './authority.js';
import { BACKDATE_MS } from './authority.js';
import { KEY_ALGORITHM, loadX509, randomSerial } from './x509.js';

/** 397 days: within what browsers and Apple's platforms accept for a server certificate. */
const SERVER_VALID_DAYS = 397;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ServerCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** The names it is valid for (names.ts). */
  readonly names: readonly string[];
}


export async function issueServerCertificate(authority: Authority, names: readonly string[], now: number = Date.now()): Promise<ServerCertificate> {
  const x509 = await loadX509();
  const keys = (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']));
  const issuer = new x509.X509Certificate(authority.certPem);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${names[0] ?? 'localhost'}`,
    issuer: issuer.subject,
    notBefore: new Date(now - BACKDATE_MS),
    // Never past the authority's own end: a chain is only as valid as its shortest link.
    notAfter: new Date(Math.min(now + SERVER_VALID_DAYS * DAY_MS, Date.parse(authority.certificate.validTo))),
    signingKey: authority.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: isIP(value) === 0 ? ('dns' as const) : ('ip' as const), value }))),
      await x509.AuthorityKeyIdentifierExtension.create(issuer, false),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const keyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certPem: certificate.toString('pem'), keyPem, names };
}
