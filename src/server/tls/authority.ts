/**
 * The sandbox's local certificate authority: one per kactl data folder, made the first time
 * an HTTPS sandbox (or `kactl sandbox ca`) needs it, and kept in `<data folder>/ca/`:
 *
 *   kactl-sandbox-ca.pem   the authority's certificate (public: what programs are told to trust)
 *   ca-key.pem             its private key, mode 0600 in a 0700 folder; never printed, never sent
 *
 * Made in a temporary folder and renamed into place, so two kactl processes that both find no
 * authority cannot end up with a certificate of one and the key of the other: the second
 * rename fails and that process reads the winner's files.
 */
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KEY_ALGORITHM, loadX509, randomSerial } from './x509.js';

export const CA_CERT_FILE = 'kactl-sandbox-ca.pem';
export const CA_KEY_FILE = 'ca-key.pem';

/** Ten years: long enough that nobody re-imports it into a trust store while testing. */
const CA_VALID_DAYS = 3650;
/** Certificates start an hour early, so a machine whose clock runs a little behind accepts them. */
export const BACKDATE_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Authority {
  /** The certificate, PEM. */
  readonly certPem: string;
  /** Absolute path of the certificate file. */
  readonly certFile: string;
  /** The private key, for signing server certificates in this process only. */
  readonly privateKey: webcrypto.CryptoKey;
  /** The certificate as node parses it (subject, fingerprint, validity). */
  readonly certificate: X509Certificate;
  /** Made by this call (the first use of this data folder). */
  readonly created: boolean;
}

/** A damaged or unreadable authority: what is wrong and how to start over. */
export class AuthorityError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AuthorityError';
  }
}

export function authorityDir(dataDir: string): string {
  return path.join(dataDir, 'ca');
}

/** The certificate file's path, whether or not it exists yet. */
export function authorityCertFile(dataDir: string): string {
  return path.join(authorityDir(dataDir), CA_CERT_FILE);
}

/** The authority of this data folder, made now if there is none. `now`: real time, ms. */
export async function loadOrCreateAuthority(dataDir: string, now: number = Date.now()): Promise<Authority> {
  const dir = authorityDir(dataDir);
  const created = fs.existsSync(dir) ? false : await createAuthority(dataDir, dir, now);
  return { ...(await readAuthority(dir)), created };
}

/**
 * The authority's certificate alone (no key, no certificate library): what `kactl sandbox ca`
 * shows. Undefined when this data folder has no authority yet.
 */
export function readAuthorityCertificate(dataDir: string): { certPem: string; certFile: string; certificate: X509Certificate } | undefined {
  const certFile = authorityCertFile(dataDir);
  let certPem: string;
  try {
    certPem = fs.readFileSync(certFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(authorityDir(dataDir))) return undefined;
    throw new AuthorityError(`The sandbox's certificate authority in ${authorityDir(dataDir)} cannot be used: ${(error as Error).message}. Remove that folder to make a new one.`, { cause: error });
  }
  try {
    return { certPem, certFile, certificate: new X509Certificate(certPem) };
  } catch (error) {
    throw new AuthorityError(`The sandbox's certificate authority in ${authorityDir(dataDir)} cannot be used: ${CA_CERT_FILE} is not a certificate. Remove that folder to make a new one.`, { cause: error });
  }
}

/** Makes the authority; false when another process made it first (theirs is kept). */
async function createAuthority(dataDir: string, dir: string, now: number): Promise<boolean> {
  const x509 = await loadX509();
  const keys = (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']));
  // A short id in the name tells two data folders' authorities apart in a trust store.
  const id = randomBytes(4).toString('hex');
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=kactl sandbox CA ${id}, O=kactl (local testing only)`,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + CA_VALID_DAYS * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      // pathLen 0: it signs server certificates, never another authority.
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  // PEM files end with a newline: `cat`, `cp` into a trust store and `--pem` all expect one.
  const keyPem = `${x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY').trimEnd()}\n`;
  const certPem = `${certificate.toString('pem').trimEnd()}\n`;

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temp = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  fs.mkdirSync(temp, { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(temp, CA_KEY_FILE), keyPem, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(path.join(temp, CA_CERT_FILE), certPem, { mode: 0o644, flag: 'wx' });
    try {
      fs.renameSync(temp, dir);
      return true;
    } catch (error) {
      // Another process made it first (a non-empty target folder): use theirs.
      if (!fs.existsSync(dir)) throw error;
      return false;
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

async function readAuthority(dir: string): Promise<Omit<Authority, 'created'>> {
  const certFile = path.join(dir, CA_CERT_FILE);
  const keyFile = path.join(dir, CA_KEY_FILE);
  const damaged = (what: string, cause?: unknown): AuthorityError =>
    new AuthorityError(
      `The sandbox's certificate authority in ${dir} cannot be used: ${what}. Remove that folder to make a new one (programs that trusted the old one must then trust the new one).`,
      cause === undefined ? undefined : { cause },
    );
  let certPem: string;
  let keyPem: string;
  try {
    certPem = fs.readFileSync(certFile, 'utf8');
    keyPem = fs.readFileSync(keyFile, 'utf8');
  } catch (error) {
    throw damaged(`${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'a file is missing' : 'a file cannot be read'} (${(error as Error).message})`, error);
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch (error) {
    throw damaged(`${CA_CERT_FILE} is not a certificate`, error);
  }
  const x509 = await loadX509();
  let privateKey: webcrypto.CryptoKey;
  try {
    const der = x509.PemConverter.decodeFirst(keyPem);
    privateKey = await webcrypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, false, ['sign']);
  } catch (error) {
    throw damaged(`${CA_KEY_FILE} is not an ECDSA P-256 private key`, error);
  }
  if (!(await keyMatches(privateKey, certificate))) throw damaged(`${CA_KEY_FILE} does not belong to ${CA_CERT_FILE}`);
  return { certPem, certFile, privateKey, certificate };
}

/** Whether the key signs what the certificate's public key verifies. */
async function keyMatches(privateKey: webcrypto.CryptoKey, certificate: X509Certificate): Promise<boolean> {
  const probe = randomBytes(32);
  const signature = await webcrypto.subtle.sign(KEY_ALGORITHM, privateKey, probe);
  const publicKey = await webcrypto.subtle.importKey('spki', certificate.publicKey.export({ type: 'spki', format: 'der' }), KEY_ALGORITHM, false, ['verify']);
  return webcrypto.subtle.verify(KEY_ALGORITHM, publicKey, signature, probe);
}
