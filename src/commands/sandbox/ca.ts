/**
 * `kactl sandbox ca [--pem | --path | --rotate]`: the certificate authority that signs HTTPS
 * sandboxes' certificates (one per data folder, made here when there is none yet), what it may
 * sign for, and how to make a program trust it and stop trusting it. `--rotate` makes the next
 * one (about a year each). Only the certificate is ever shown; its private key stays in its file.
 */
import type { X509Certificate } from 'node:crypto';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_TLS_HOSTNAME, describePermitted, type PermittedNames } from '../../server/tls/names.js';
import { warnRunning } from './tls-authority.js';

interface CaOptions {
  pem?: boolean;
  path?: boolean;
  rotate?: boolean;
}

export function registerSandboxCa(group: Command, ctx: Context): void {
  group
    .command('ca')
    .description('show the certificate authority HTTPS sandboxes (--tls) use, what it may sign for, and how to trust it')
    .option('--pem', 'print the certificate (PEM) to stdout')
    .option('--path', "print the certificate file's path")
    .option('--rotate', 'make a new authority (same names, a year of validity) in place of the current one')
    .addHelpText('after', TRUST_HELP)
    .action(async (options: CaOptions) => {
      if ([options.pem, options.path, options.rotate].filter(Boolean).length > 1) throw new UsageError('Give one of --pem, --path and --rotate.');
      const { authority, created } = options.rotate ? await rotate(ctx) : await authorityOf(ctx);
      if (created && !options.rotate) ctx.output.note(`Made a certificate authority for this data folder (${authority.certFile}); its key stays beside it, mode 0600.`);
      if (options.pem) return ctx.io.out(authority.certPem.endsWith('\n') ? authority.certPem : `${authority.certPem}\n`);
      if (options.path) return ctx.io.out(`${authority.certFile}\n`);
      const { certificate } = authority;
      ctx.output.record(
        {
          subject: certificate.subject.replace(/\n/g, ', '),
          fingerprint256: certificate.fingerprint256,
          validFrom: new Date(certificate.validFrom).toISOString(),
          validTo: new Date(certificate.validTo).toISOString(),
          // An earlier kactl's authority has no constraints: it may sign for any name.
          permitted: authority.permitted === undefined ? 'any name (made by an earlier kactl: run kactl sandbox ca --rotate)' : describePermitted(authority.permitted),
          file: authority.certFile,
        },
        [
          { key: 'subject' },
          { key: 'fingerprint256', header: 'SHA-256' },
          { key: 'validFrom', header: 'valid from' },
          { key: 'validTo', header: 'valid to' },
          { key: 'permitted', header: 'may sign for' },
          { key: 'file' },
        ],
      );
    });
}

interface ShownAuthority {
  readonly certPem: string;
  readonly certFile: string;
  readonly certificate: X509Certificate;
  readonly permitted: PermittedNames | undefined;
}

async function authorityOf(ctx: Context): Promise<{ authority: ShownAuthority; created: boolean }> {
  const { AuthorityError, loadOrCreateAuthority, permittedNamesOf, readAuthorityCertificate } = await import('../../server/tls/authority.js');
  try {
    const existing = readAuthorityCertificate(ctx.dataDir);
    if (existing !== undefined) return { authority: { ...existing, permitted: await permittedNamesOf(existing.certPem) }, created: false };
    const made = await loadOrCreateAuthority(ctx.dataDir, ctx.now());
    return { authority: made, created: made.created };
  } catch (error) {
    if (error instanceof AuthorityError) throw new UsageError(error.message);
    throw error;
  }
}

/** A new authority in place of the old; says what to remove where, and which sandboxes to restart. */
async function rotate(ctx: Context): Promise<{ authority: ShownAuthority; created: boolean }> {
  const { AuthorityError, rotateAuthority } = await import('../../server/tls/authority.js');
  let rotated: Awaited<ReturnType<typeof rotateAuthority>>;
  try {
    rotated = await rotateAuthority(ctx.dataDir, ctx.now());
  } catch (error) {
    if (error instanceof AuthorityError) throw new UsageError(error.message);
    throw error;
  }
  const { old, authority } = rotated;
  const name = (certificate: X509Certificate): string => /CN=([^\n,]+)/.exec(certificate.subject)?.[1] ?? certificate.subject;
  ctx.output.note(
    old === undefined
      ? `Made a certificate authority for this data folder (${authority.certFile}).`
      : `Made a new certificate authority "${name(authority.certificate)}" in place of "${name(old)}" (SHA-256 ${old.fingerprint256}). ` +
          `Trust the new one where you trusted the old, and remove "${name(old)}" from those trust stores (kactl sandbox ca --help lists the commands).`,
  );
  await warnRunning(ctx);
  return { authority, created: true };
}

/**
 * The help's "how to trust it", one program first, and how to undo each. Static (the built help
 * files are made once, without the user's environment), so it names the file as FILE: the path
 * `kactl sandbox ca --path` prints; and the authority as NAME: the CN `kactl sandbox ca` prints.
 */
const TRUST_HELP = `
The authority is made once per data folder (KACTL_DATA_DIR) and signs the
certificate each \`kactl sandbox start --tls\` makes. It may sign only for
localhost, *.localhost, *.test, 127.0.0.0/8, ::1 and the names and addresses
chosen for it (kactl asks before adding one), and it lasts a year:
\`kactl sandbox ca --rotate\` makes the next one. kactl's own profile for a
sandbox trusts it already. Below, FILE is the certificate's path
(\`kactl sandbox ca --path\`) and NAME its subject's CN ("kactl sandbox CA …",
shown by \`kactl sandbox ca\`).

For one program only (nothing to undo: the trust ends with the program):
  Node             NODE_EXTRA_CA_CERTS=FILE node app.js
  curl             curl --cacert FILE https://${DEFAULT_TLS_HOSTNAME}/api/1.3/
  Go, OpenSSL      SSL_CERT_FILE=FILE ./app   (Linux; Go on Windows and macOS reads the system store)
  Python requests  REQUESTS_CA_BUNDLE=FILE python main.py   (or verify="FILE" in the code)
  Java             keytool -importcert -noprompt -alias kactl-sandbox -file FILE -keystore sandbox.jks -storepass changeit
                   java -Djavax.net.ssl.trustStore=sandbox.jks -Djavax.net.ssl.trustStorePassword=changeit -jar app.jar
                   undo: delete sandbox.jks

Or for the whole machine (an administrator's shell), and how to remove it again:
  Windows        certutil -addstore -f Root FILE
    remove       certutil -delstore Root "NAME"
  macOS          sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain FILE
    remove       sudo security delete-certificate -c "NAME" /Library/Keychains/System.keychain
  Debian/Ubuntu  sudo cp FILE /usr/local/share/ca-certificates/kactl-sandbox-ca.crt && sudo update-ca-certificates
    remove       sudo rm /usr/local/share/ca-certificates/kactl-sandbox-ca.crt && sudo update-ca-certificates --fresh
  Fedora/RHEL    sudo trust anchor --store FILE
    remove       sudo trust anchor --remove FILE
The system store is what .NET, browsers and PHP's curl read. After --rotate,
remove the old authority the same way and trust the new one.

Examples:
  $ kactl sandbox ca
  $ kactl sandbox ca --pem > kactl-sandbox-ca.pem
  $ NODE_EXTRA_CA_CERTS="$(kactl sandbox ca --path)" node app.js
  $ kactl sandbox ca --rotate`;
