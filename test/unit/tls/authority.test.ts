/**
 * The sandbox's certificate authority and the server certificates it signs (src/server/tls/):
 * made once per data folder with its key 0600 in a 0700 folder, reused by every later start,
 * refused with a clear sentence when damaged, and a server certificate that names the host
 * name, localhost, 127.0.0.1 and ::1 and chains to it.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthorityError, authorityDir, CA_CERT_FILE, CA_KEY_FILE, loadOrCreateAuthority, readAuthorityCertificate } from '../../../src/server/tls/authority.js';
import { certificateNames, checkTlsHostname, DEFAULT_TLS_HOSTNAME } from '../../../src/server/tls/names.js';
import { issueServerCertificate } from '../../../src/server/tls/server-certificate.js';
import { tempDir } from '../../helpers/temp-dir.js';

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

describe('the certificate authority of a data folder', () => {
  it('is made once: key 0600 in a 0700 folder, certificate a P-256 CA valid for years', async () => {
    const data = path.join(tempDir('kactl-ca-'), 'data');
    expect(readAuthorityCertificate(data)).toBeUndefined();
    const made = await loadOrCreateAuthority(data);
    expect(made.created).toBe(true);
    const dir = authorityDir(data);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, CA_KEY_FILE))).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, CA_KEY_FILE), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(made.certFile).toBe(path.join(dir, CA_CERT_FILE));
    const cert = new X509Certificate(fs.readFileSync(made.certFile));
    expect(cert.ca).toBe(true);
    expect(cert.subject).toMatch(/CN=kactl sandbox CA [0-9a-f]{8}/);
    expect(cert.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(9 * 365 * 86_400_000);
    expect(cert.checkIssued(cert)).toBe(true);
  });

  it('is reused by every later start (same certificate, nothing rewritten)', async () => {
    const data = tempDir('kactl-ca-');
    const first = await loadOrCreateAuthority(data);
    const before = fs.statSync(first.certFile).mtimeMs;
    const second = await loadOrCreateAuthority(data);
    expect(second.created).toBe(false);
    expect(second.certPem).toBe(first.certPem);
    expect(fs.statSync(second.certFile).mtimeMs).toBe(before);
    expect(readAuthorityCertificate(data)?.certPem).toBe(first.certPem);
  });

  it('two processes making it at once end with one authority whose key and certificate match', async () => {
    const data = tempDir('kactl-ca-');
    const [a, b] = await Promise.all([loadOrCreateAuthority(data), loadOrCreateAuthority(data)]);
    expect(a.certPem).toBe(b.certPem);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
    // Signing with the kept key gives certificates the kept certificate verifies.
    const leaf = await issueServerCertificate(b, certificateNames(DEFAULT_TLS_HOSTNAME));
    expect(new X509Certificate(leaf.certPem).verify(new X509Certificate(a.certPem).publicKey)).toBe(true);
    expect(fs.readdirSync(data).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a damaged authority is refused with what is wrong and how to start over', async () => {
    const data = tempDir('kactl-ca-');
    await loadOrCreateAuthority(data);
    fs.writeFileSync(path.join(authorityDir(data), CA_KEY_FILE), 'not a key');
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(AuthorityError);
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(/ca-key\.pem is not an ECDSA P-256 private key\. Remove that folder/);
    // A key of another authority.
    const other = tempDir('kactl-ca-');
    await loadOrCreateAuthority(other);
    fs.copyFileSync(path.join(authorityDir(other), CA_KEY_FILE), path.join(authorityDir(data), CA_KEY_FILE));
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(/does not belong to kactl-sandbox-ca\.pem/);
    fs.rmSync(path.join(authorityDir(data), CA_KEY_FILE));
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(/a file is missing/);
  });
});

describe('the server certificate', () => {
  it('names the host name, localhost, 127.0.0.1 and ::1, serves TLS servers only, and chains to the authority', async () => {
    const authority = await loadOrCreateAuthority(tempDir('kactl-ca-'));
    const leaf = await issueServerCertificate(authority, certificateNames('my-app.test'));
    const cert = new X509Certificate(leaf.certPem);
    expect(cert.subjectAltName).toBe('DNS:my-app.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.checkHost('my-app.test')).toBe('my-app.test');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkHost('example.com')).toBeUndefined();
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.checkIssued(authority.certificate)).toBe(true);
    expect(cert.verify(authority.certificate.publicKey)).toBe(true);
    // The server's key is its own, never the authority's.
    expect(leaf.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(leaf.keyPem).not.toBe(fs.readFileSync(path.join(path.dirname(authority.certFile), CA_KEY_FILE), 'utf8'));
  });

  it('adds a specific bound address, not a wildcard one', () => {
    expect(certificateNames('kactl.test', '192.0.2.7')).toEqual(['kactl.test', 'localhost', '127.0.0.1', '::1', '192.0.2.7']);
    expect(certificateNames('kactl.test', '0.0.0.0')).toEqual(['kactl.test', 'localhost', '127.0.0.1', '::1']);
    expect(certificateNames('kactl.test', '127.0.0.1')).toEqual(['kactl.test', 'localhost', '127.0.0.1', '::1']);
  });

  it('--hostname takes a host name, in any case, and refuses addresses and junk', () => {
    expect(checkTlsHostname('My-App.Test')).toBe('my-app.test');
    expect(() => checkTlsHostname('127.0.0.1')).toThrow(/not an address/);
    expect(() => checkTlsHostname('[::1]')).toThrow(/not an address/);
    for (const bad of ['', 'a b', '-x.test', 'x_y.test', 'x..test', `${'a'.repeat(64)}.test`]) expect(() => checkTlsHostname(bad)).toThrow(/not a host name/);
  });
});
