/**
 * The authority is used only when its folder and files are ours alone (issue 29 item 2, the rules
 * of bin/cache-folder.js): a link, another user's folder or file, a folder or key open to others,
 * a second hard link, or a folder above that others may change is refused with a sentence naming
 * the path, and nothing of it is read, served or replaced. The cases another user makes run as a
 * real second Unix user (root only; CI runs as root and must not skip them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  authorityDir,
  authorityWarnings,
  CA_CERT_FILE,
  CA_KEY_FILE,
  existingAuthority,
  loadOrCreateAuthority,
  readAuthorityCertificate,
  rotateAuthority,
  UnsafeAuthorityError,
} from '../../../src/server/tls/authority.js';
import { KEY_ALGORITHM, loadX509, randomSerial } from '../../../src/server/tls/x509.js';
import { otherUser, otherUserSkip } from '../../helpers/other-user.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A data folder holding an authority, and its files. */
async function withAuthority(): Promise<{ data: string; dir: string; key: string; cert: string }> {
  const data = tempDir('kactl-ca-files-');
  await loadOrCreateAuthority(data);
  const dir = authorityDir(data);
  return { data, dir, key: path.join(dir, CA_KEY_FILE), cert: path.join(dir, CA_CERT_FILE) };
}

/** Every way of reading it refuses, naming `what`; the certificate is never handed out. */
async function expectRefused(data: string, what: RegExp): Promise<void> {
  await expect(loadOrCreateAuthority(data)).rejects.toThrow(UnsafeAuthorityError);
  await expect(loadOrCreateAuthority(data)).rejects.toThrow(what);
  expect(() => readAuthorityCertificate(data)).toThrow(what);
  await expect(existingAuthority(data)).rejects.toThrow(what);
  // Not kactl's to replace either: --rotate refuses it too.
  await expect(rotateAuthority(data)).rejects.toThrow(what);
}

describe('the authority files must be ours alone (issue 29 item 2)', () => {
  it('refuses a ca folder that is a symbolic link, even to a good authority', async () => {
    const { dir } = await withAuthority();
    const data = tempDir('kactl-ca-files-');
    fs.symlinkSync(dir, authorityDir(data));
    await expectRefused(data, new RegExp(`${authorityDir(data).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a symbolic link`));
  });

  it('refuses a certificate or key that is a symbolic link', async () => {
    const { data, cert } = await withAuthority();
    const elsewhere = path.join(tempDir('kactl-ca-files-'), 'ca.pem');
    fs.renameSync(cert, elsewhere);
    fs.symlinkSync(elsewhere, cert);
    await expectRefused(data, /kactl-sandbox-ca\.pem is a symbolic link/);
  });

  it('refuses a key with a second hard link, and a key or folder open to others, saying the command that fixes it', async () => {
    const { data, dir, key } = await withAuthority();
    const link = path.join(tempDir('kactl-ca-files-'), 'copy.pem');
    fs.linkSync(key, link);
    await expectRefused(data, /ca-key\.pem has 2 hard links/);
    fs.rmSync(link);
    fs.chmodSync(key, 0o644);
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(/ca-key\.pem is open to other users \(mode 0644\)\. .*chmod 600/);
    fs.chmodSync(key, 0o600);
    fs.chmodSync(dir, 0o755);
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(new RegExp(`${path.basename(path.dirname(dir))}/ca is open to other users \\(mode 0755\\).*chmod 700`));
    fs.chmodSync(dir, 0o700);
    expect((await loadOrCreateAuthority(data)).created).toBe(false);
  });

  it('makes no authority in a data folder others may write to without the sticky bit', async () => {
    const data = path.join(tempDir('kactl-ca-files-'), 'open');
    fs.mkdirSync(data, { mode: 0o777 });
    fs.chmodSync(data, 0o777);
    await expect(loadOrCreateAuthority(data)).rejects.toThrow(/No certificate authority is made in .*open: the data folder .* can be changed by other users \(mode 0777, not sticky\)/);
    expect(fs.readdirSync(data)).toEqual([]);
  });

  it('refuses what another user planted in a shared sticky data folder, or owns inside ours (a second Unix user)', async (ctx) => {
    const skip = otherUserSkip();
    if (skip !== undefined) {
      if (process.env.CI) throw new Error(`CI must run the two-user tests: ${skip}`);
      ctx.skip(skip);
    }
    const other = otherUser();
    // A shared folder as /tmp is: root's, sticky, open to all.
    const shared = path.join(tempDir('kactl-ca-shared-'), 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    // Their authority, good in every other way, in the place kactl looks.
    const { dir } = await withAuthority();
    const planted = authorityDir(shared);
    fs.cpSync(dir, planted, { recursive: true });
    for (const file of [planted, path.join(planted, CA_KEY_FILE), path.join(planted, CA_CERT_FILE)]) other.own(file);
    await expectRefused(shared, new RegExp(`${planted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} belongs to another user \\(uid ${other.uid}\\)\\. Another user may have put it there; remove it`));

    // Our own folder, with a key file of theirs in it.
    const mine = await withAuthority();
    other.own(mine.key);
    await expectRefused(mine.data, new RegExp(`ca-key\\.pem belongs to another user \\(uid ${other.uid}\\)`));

    // A data folder of theirs, even sticky, is one they may empty and refill: nothing is made there.
    const theirs = path.join(tempDir('kactl-ca-shared-'), 'theirs');
    fs.mkdirSync(theirs);
    fs.chmodSync(theirs, 0o1777);
    other.own(theirs);
    await expect(loadOrCreateAuthority(theirs)).rejects.toThrow(new RegExp(`the data folder .*theirs belongs to another user \\(uid ${other.uid}\\)`));
  });
});

describe('an authority made by an earlier kactl (no name constraints, ten years)', () => {
  it('is still used, with a warning to rotate; --rotate gives a narrow one', async () => {
    const data = tempDir('kactl-ca-legacy-');
    const x509 = await loadX509();
    const keys = await crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(),
      name: 'CN=kactl sandbox CA 0ld0ld00, O=kactl (local testing only)',
      notBefore: new Date(Date.now() - 3_600_000),
      notAfter: new Date(Date.now() + 3650 * 86_400_000),
      keys,
      signingAlgorithm: KEY_ALGORITHM,
      extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
    });
    const dir = authorityDir(data);
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, CA_KEY_FILE), x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'), { mode: 0o600 });
    fs.writeFileSync(path.join(dir, CA_CERT_FILE), certificate.toString('pem'), { mode: 0o644 });

    const legacy = await loadOrCreateAuthority(data, Date.now(), { names: ['accounts.google.com'] });
    expect(legacy.permitted).toBeUndefined();
    expect(authorityWarnings(legacy, Date.now()).join(' ')).toMatch(/made by an earlier kactl and may sign for any site, for years: make a narrow one with `kactl sandbox ca --rotate`/);
    const { old, authority } = await rotateAuthority(data);
    expect(old?.subject).toContain('0ld0ld00');
    expect(authority.permitted).toEqual({ dns: ['localhost', '.localhost', '.test'], ip: ['127.0.0.0/8', '::1/128'] });
    expect(authorityWarnings(authority, Date.now())).toEqual([]);
  });
});
