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

/** The host name a certificate names when none is chosen: `.test` is reserved, so it is never a real site's. */
export const DEFAULT_TLS_HOSTNAME = 'kactl.test';

/** 397 days: within what browsers and Apple's platforms accept for a server certificate. */
const SERVER_VALID_DAYS = 397;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ServerCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** The names it is valid for, in order: DNS names, then IP addresses. */
  readonly names: readonly string[];
}

/** Labels of letters, digits and inner hyphens, dot-separated; at most 253 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Checks a `--hostname` and returns it in lower case, or throws an Error saying what a host
 * name is. An IP address is refused: the certificate already names the loopback addresses, and
 * a program that needs a name (the official C++ library) refuses addresses anyway.
 */
export function checkTlsHostname(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(name) !== 0 || isIP(name.replace(/^\[|\]$/g, '')) !== 0) {
    throw new Error(`--hostname takes a host name, not an address ("${raw}"); the certificate already names 127.0.0.1 and ::1.`);
  }
  if (name.length === 0 || name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) {
    throw new Error(`"${raw}" is not a host name; give one such as ${DEFAULT_TLS_HOSTNAME} (letters, digits, hyphens and dots).`);
  }
  return name;
}

/** The names a server certificate carries for `hostname`, plus `bindHost` when it is another specific address or name. */
export function certificateNames(hostname: string, bindHost?: string): string[] {
  const dns = [hostname, 'localhost'];
  const ips = ['127.0.0.1', '::1'];
  const extra = bindHost?.replace(/^\[|\]$/g, '').toLowerCase();
  if (extra !== undefined && extra !== '0.0.0.0' && extra !== '::') {
    if (isIP(extra) !== 0) {
      if (!ips.includes(extra)) ips.push(extra);
    } else if (!dns.includes(extra)) {
      dns.push(extra);
    }
  }
  return [...new Set(dns), ...ips];
}

export async function issueServerCertificate(authority: Authority, names: readonly string[], now: number = Date.now()): Promise<ServerCertificate> {
  const x509 = await loadX509();
  const keys = (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
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
