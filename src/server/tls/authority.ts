/**
 * The sandbox's local certificate authority: one per kactl data folder, made the first time
 * an HTTPS sandbox (or `kactl sandbox ca`) needs it, and kept in `<data folder>/ca/`:
 *
 *   kactl-sandbox-ca.pem   the authority's certificate (public: what programs are told to trust)
 *   ca-key.pem             its private key, mode 0600 in a 0700 folder; never printed, never sent
 *
 * It is narrow (docs/security.md, 29.3): name constraints let it sign only for loopback names
 * and addresses, `.test`, `.localhost` and the names the user chose for it (names.ts), and it
 * lasts about a year (`kactl sandbox ca --rotate` makes the next one). Its files are read only
 * when they are ours alone (authority-files.ts, 29.2).
 *
 * Made in a temporary folder and renamed into place, so two kactl processes that both find no
 * authority cannot end up with a certificate of one and the key of the other: the second
 * rename fails and that process reads the winner's files.
 */
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataFolderProblem, entryExists, folderProblem, readAuthorityFile, type AuthorityProblem } from './authority-files.js';
import { nameConstraintsExtension, readNameConstraints } from './name-constraints.js';
import { BASE_PERMITTED, describePermitted, outsideNames, permittedWith, type PermittedNames } from './names.js';
import { KEY_ALGORITHM, loadX509, randomSerial } from './x509.js';

export const CA_CERT_FILE = 'kactl-sandbox-ca.pem';
export const CA_KEY_FILE = 'ca-key.pem';

/** About a year: a copied key stops being of use within one; `kactl sandbox ca --rotate` makes the next. */
export const CA_VALID_DAYS = 365;
/** From this close to its end, every start says to rotate it. */
const EXPIRY_WARNING_DAYS = 30;
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
  /** What it may sign for; undefined for an authority made by an earlier kactl, without constraints. */
  readonly permitted: PermittedNames | undefined;
  /** Made by this call (the first use of this data folder, or a new authority for new names). */
  readonly created: boolean;
}

/** A damaged, unsafe or unreadable authority: what is wrong and how to start over. */
export class AuthorityError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AuthorityError';
  }
}

/** An authority whose folder or files another user could have made or read: never used, never replaced by kactl. */
export class UnsafeAuthorityError extends AuthorityError {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeAuthorityError';
  }
}

/** Names the authority may not sign for: the caller asks the user, then calls again with `widen`. */
export class AuthorityNamesError extends AuthorityError {
  constructor(
    /** The names outside its constraints. */
    readonly outside: readonly string[],
    /** Its constraints now (the base ones when there is no authority yet). */
    readonly permitted: PermittedNames,
    /** Whether an authority exists (programs may trust it) or a first one would be made. */
    readonly exists: boolean,
  ) {
    super(
      `The sandbox's certificate authority may sign only for ${describePermitted(permitted)}; ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside that. ` +
        `A new authority that may also sign for ${outside.length === 1 ? 'it' : 'them'} is made only when asked for (\`kactl sandbox start --tls\` asks, or takes --yes; the library takes tls.widenAuthority)${exists ? '; programs that trust the current one must then trust the new one' : ''}.`,
    );
    this.name = 'AuthorityNamesError';
  }
}

export function authorityDir(dataDir: string): string {
  return path.join(dataDir, 'ca');
}

/** The certificate file's path, whether or not it exists yet. */
export function authorityCertFile(dataDir: string): string {
  return path.join(authorityDir(dataDir), CA_CERT_FILE);
}

function unsafe(dir: string, problem: AuthorityProblem): UnsafeAuthorityError {
  return new UnsafeAuthorityError(`The sandbox's certificate authority in ${dir} is not used: ${problem.what}. Another user may have put it there; ${problem.remedy}.`);
}

/** The folder's problem as an error, or nothing; a folder that cannot be examined is one too. */
function checkFolder(dir: string): void {
  let problem: AuthorityProblem | undefined;
  try {
    problem = folderProblem(dir);
  } catch (error) {
    problem = { what: `${dir} cannot be examined (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, remedy: `remove it (rm -r '${dir}')` };
  }
  if (problem !== undefined) throw unsafe(dir, problem);
}

/** Reads one file of the authority under the rules of authority-files.ts. */
function readChecked(dir: string, name: string, secret: boolean): string {
  const read = readAuthorityFile(path.join(dir, name), secret);
  if (read === 'missing') throw damaged(dir, `${name} is missing`);
  if ('text' in read) return read.text;
  throw unsafe(dir, read);
}

function damaged(dir: string, what: string, cause?: unknown): AuthorityError {
  return new AuthorityError(
    `The sandbox's certificate authority in ${dir} cannot be used: ${what}. Remove that folder to make a new one (programs that trusted the old one must then trust the new one).`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The authority's certificate (its key's file checked, not parsed; no certificate library): what
 * `kactl sandbox ca` shows. Undefined when this data folder has no authority yet.
 */
export function readAuthorityCertificate(dataDir: string): { certPem: string; certFile: string; certificate: X509Certificate } | undefined {
  const dir = authorityDir(dataDir);
  if (!entryExists(dir)) return undefined;
  checkFolder(dir);
  const certPem = readChecked(dir, CA_CERT_FILE, false);
  // The key is not parsed here, but it must be ours alone too: a key of someone else's makes the authority theirs.
  readChecked(dir, CA_KEY_FILE, true);
  try {
    return { certPem, certFile: path.join(dir, CA_CERT_FILE), certificate: new X509Certificate(certPem) };
  } catch (error) {
    throw damaged(dir, `${CA_CERT_FILE} is not a certificate`, error);
  }
}

/**
 * The authority of this data folder for a certificate naming `names`, made now if there is none.
 * A name outside its constraints throws AuthorityNamesError unless `widen`: then a new authority
 * is made that may also sign for it (keeping the names the old one had). `now`: real time, ms.
 */
export async function loadOrCreateAuthority(dataDir: string, now: number = Date.now(), options: { names?: readonly string[]; widen?: boolean } = {}): Promise<Authority> {
  const names = options.names ?? [];
  const dir = authorityDir(dataDir);
  if (!entryExists(dir)) {
    const outside = outsideNames(BASE_PERMITTED, names);
    if (outside.length > 0 && options.widen !== true) throw new AuthorityNamesError(outside, BASE_PERMITTED, false);
    const created = await createAuthority(dataDir, now, permittedWith(BASE_PERMITTED, names));
    return { ...(await readAuthority(dir)), created };
  }
  const current = await readAuthority(dir);
  // An authority without constraints (an earlier kactl's) signs for anything: start warns about it.
  const outside = current.permitted === undefined ? [] : outsideNames(current.permitted, names);
  if (outside.length === 0) return { ...current, created: false };
  if (options.widen !== true) throw new AuthorityNamesError(outside, current.permitted!, true);
  await replaceAuthority(dataDir, now, permittedWith(current.permitted!, names));
  return { ...(await readAuthority(dir)), created: true };
}

/**
 * A new authority in place of the current one, with the same names (an earlier kactl's, which
 * had none, gets the base ones): what `kactl sandbox ca --rotate` does. Returns the old
 * certificate, for the lines that remove it from trust stores, and the new authority.
 */
export async function rotateAuthority(dataDir: string, now: number = Date.now()): Promise<{ old: X509Certificate | undefined; authority: Authority }> {
  const dir = authorityDir(dataDir);
  if (!entryExists(dir)) {
    await createAuthority(dataDir, now, BASE_PERMITTED);
    return { old: undefined, authority: { ...(await readAuthority(dir)), created: true } };
  }
  checkFolder(dir);
  let old: X509Certificate | undefined;
  let permitted: PermittedNames = BASE_PERMITTED;
  try {
    const current = await readAuthority(dir);
    old = current.certificate;
    permitted = current.permitted ?? BASE_PERMITTED;
  } catch (error) {
    // A damaged authority is what rotating is for; an unsafe one is not kactl's to replace.
    if (!(error instanceof AuthorityError) || error instanceof UnsafeAuthorityError) throw error;
  }
  await replaceAuthority(dataDir, now, permitted);
  return { old, authority: { ...(await readAuthority(dir)), created: true } };
}

/** The data folder's authority, read and checked as a start would (nothing is made), or undefined when there is none. */
export async function existingAuthority(dataDir: string): Promise<Omit<Authority, 'created'> | undefined> {
  const dir = authorityDir(dataDir);
  return entryExists(dir) ? readAuthority(dir) : undefined;
}

/** Days until the authority ends (negative once it has), at `now`. */
export function daysLeft(certificate: X509Certificate, now: number): number {
  return Math.floor((Date.parse(certificate.validTo) - now) / DAY_MS);
}

/** What a start says about an authority: an earlier kactl's without constraints, or one ending soon. */
export function authorityWarnings(authority: Pick<Authority, 'certificate' | 'certFile' | 'permitted'>, now: number): string[] {
  const warnings: string[] = [];
  if (authority.permitted === undefined) {
    warnings.push(
      `The certificate authority ${authority.certFile} was made by an earlier kactl and may sign for any site, for years: make a narrow one with \`kactl sandbox ca --rotate\`, and remove the old one from every trust store it is in (kactl sandbox ca --help).`,
    );
  }
  const left = daysLeft(authority.certificate, now);
  if (left >= 0 && left < EXPIRY_WARNING_DAYS) {
    warnings.push(`The certificate authority ${authority.certFile} ends on ${new Date(authority.certificate.validTo).toISOString().slice(0, 10)}: make the next one with \`kactl sandbox ca --rotate\` and trust it instead.`);
  }
  return warnings;
}

/** An ended authority cannot make a certificate anyone accepts: refused, with what to do. */
export function checkNotExpired(authority: Pick<Authority, 'certificate' | 'certFile'>, now: number): void {
  if (Date.parse(authority.certificate.validTo) > now) return;
  throw new AuthorityError(
    `The certificate authority ${authority.certFile} ended on ${new Date(authority.certificate.validTo).toISOString().slice(0, 10)}; make the next one with \`kactl sandbox ca --rotate\` and trust it instead of the old one.`,
  );
}

/** The new authority's files, in a new folder beside `ca/` (renamed into place by the caller). */
async function writeAuthority(dataDir: string, now: number, permitted: PermittedNames): Promise<string> {
  const x509 = await loadX509();
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
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
      await nameConstraintsExtension(x509, permitted),
    ],
  });
  // PEM files end with a newline: `cat`, `cp` into a trust store and `--pem` all expect one.
  const keyPem = `${x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY').trimEnd()}\n`;
  const certPem = `${certificate.toString('pem').trimEnd()}\n`;

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const problem = dataFolderProblem(dataDir);
  if (problem !== undefined) throw new AuthorityError(`No certificate authority is made in ${dataDir}: ${problem.what}; ${problem.remedy}.`);
  const temp = `${authorityDir(dataDir)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  fs.mkdirSync(temp, { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(temp, CA_KEY_FILE), keyPem, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(path.join(temp, CA_CERT_FILE), certPem, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  return temp;
}

/** Makes the authority; false when another process made it first (theirs is kept). */
async function createAuthority(dataDir: string, now: number, permitted: PermittedNames): Promise<boolean> {
  const dir = authorityDir(dataDir);
  const temp = await writeAuthority(dataDir, now, permitted);
  try {
    fs.renameSync(temp, dir);
    return true;
  } catch (error) {
    // Another process made it first (a non-empty target folder): use theirs.
    if (!entryExists(dir)) throw error;
    return false;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Puts a new authority in place of the current one: the old folder is moved aside, then removed. */
async function replaceAuthority(dataDir: string, now: number, permitted: PermittedNames): Promise<void> {
  const dir = authorityDir(dataDir);
  const temp = await writeAuthority(dataDir, now, permitted);
  const aside = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}.old`;
  try {
    fs.renameSync(dir, aside);
    fs.renameSync(temp, dir);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

async function readAuthority(dir: string): Promise<Omit<Authority, 'created'>> {
  checkFolder(dir);
  const certFile = path.join(dir, CA_CERT_FILE);
  const certPem = readChecked(dir, CA_CERT_FILE, false);
  const keyPem = readChecked(dir, CA_KEY_FILE, true);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch (error) {
    throw damaged(dir, `${CA_CERT_FILE} is not a certificate`, error);
  }
  const x509 = await loadX509();
  let privateKey: webcrypto.CryptoKey;
  try {
    const der = x509.PemConverter.decodeFirst(keyPem);
    privateKey = await webcrypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, false, ['sign']);
  } catch (error) {
    throw damaged(dir, `${CA_KEY_FILE} is not an ECDSA P-256 private key`, error);
  }
  if (!(await keyMatches(privateKey, certificate))) throw damaged(dir, `${CA_KEY_FILE} does not belong to ${CA_CERT_FILE}`);
  let permitted: PermittedNames | undefined;
  try {
    permitted = await readNameConstraints(x509, certPem);
  } catch (error) {
    throw damaged(dir, `the name constraints of ${CA_CERT_FILE} cannot be read`, error);
  }
  return { certPem, certFile, privateKey, certificate, permitted };
}

/** Whether the key signs what the certificate's public key verifies. */
async function keyMatches(privateKey: webcrypto.CryptoKey, certificate: X509Certificate): Promise<boolean> {
  const probe = randomBytes(32);
  const signature = await webcrypto.subtle.sign(KEY_ALGORITHM, privateKey, probe);
  const publicKey = await webcrypto.subtle.importKey('spki', certificate.publicKey.export({ type: 'spki', format: 'der' }), KEY_ALGORITHM, false, ['verify']);
  return webcrypto.subtle.verify(KEY_ALGORITHM, publicKey, signature, probe);
}

/**
 * The permitted names of the authority's certificate, for showing (`kactl sandbox ca`) and for
 * asking before a start (loads the certificate library; reads no key).
 */
export async function permittedNamesOf(certPem: string): Promise<PermittedNames | undefined> {
  return readNameConstraints(await loadX509(), certPem);
}
