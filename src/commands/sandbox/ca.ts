/**
 * `kactl sandbox ca [--pem | --path]`: the certificate authority that signs HTTPS sandboxes'
 * certificates (one per data folder, made here when there is none yet), and how to make a
 * program trust it. Only the certificate is ever shown; its private key stays in its file.
 */
import type { X509Certificate } from 'node:crypto';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_TLS_HOSTNAME } from '../../server/tls/names.js';

interface CaOptions {
  pem?: boolean;
  path?: boolean;
}

export function registerSandboxCa(group: Command, ctx: Context): void {
  group
    .command('ca')
    .description("show the certificate authority HTTPS sandboxes (--tls) use, and how to trust it")
    .option('--pem', 'print the certificate (PEM) to stdout')
    .option('--path', "print the certificate file's path")
    .addHelpText('after', TRUST_HELP)
    .action(async (options: CaOptions) => {
      if (options.pem && options.path) throw new UsageError('Give --pem or --path, not both.');
      const { authority, created } = await authorityOf(ctx);
      if (created) ctx.output.note(`Made a certificate authority for this data folder (${authority.certFile}); its key stays beside it, mode 0600.`);
      if (options.pem) return ctx.io.out(authority.certPem.endsWith('\n') ? authority.certPem : `${authority.certPem}\n`);
      if (options.path) return ctx.io.out(`${authority.certFile}\n`);
      const { certificate } = authority;
      ctx.output.record(
        {
          subject: certificate.subject.replace(/\n/g, ', '),
          fingerprint256: certificate.fingerprint256,
          validFrom: new Date(certificate.validFrom).toISOString(),
          validTo: new Date(certificate.validTo).toISOString(),
          file: authority.certFile,
        },
        [{ key: 'subject' }, { key: 'fingerprint256', header: 'SHA-256' }, { key: 'validFrom', header: 'valid from' }, { key: 'validTo', header: 'valid to' }, { key: 'file' }],
      );
    });
}

async function authorityOf(ctx: Context): Promise<{ authority: { certPem: string; certFile: string; certificate: X509Certificate }; created: boolean }> {
  const { AuthorityError, loadOrCreateAuthority, readAuthorityCertificate } = await import('../../server/tls/authority.js');
  try {
    const existing = readAuthorityCertificate(ctx.dataDir);
    if (existing !== undefined) return { authority: existing, created: false };
    const made = await loadOrCreateAuthority(ctx.dataDir, ctx.now());
    return { authority: made, created: made.created };
  } catch (error) {
    if (error instanceof AuthorityError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The help's "how to trust it". Static (the built help files are made once, without the user's
 * environment), so it names the file as FILE: the path `kactl sandbox ca --path` prints.
 */
const TRUST_HELP = `
The authority is made once per data folder (KACTL_DATA_DIR) and signs the certificate each
\`kactl sandbox start --tls\` makes. kactl's own profile for that sandbox already trusts it;
your program must trust it too. Below, FILE is the certificate's path, as printed by
\`kactl sandbox ca --path\` (copy the file to the machine the program runs on if that is another).

Trust it for the whole machine (an administrator's shell):
  Windows        certutil -addstore -f Root FILE
  macOS          sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain FILE
  Debian/Ubuntu  sudo cp FILE /usr/local/share/ca-certificates/kactl-sandbox-ca.crt && sudo update-ca-certificates
  Fedora/RHEL    sudo trust anchor --store FILE
                 (or: sudo cp FILE /etc/pki/ca-trust/source/anchors/ && sudo update-ca-trust)

Or for one program only:
  Python requests  requests.post(url, data=form, verify="FILE"), or REQUESTS_CA_BUNDLE=FILE python main.py
  Node             NODE_EXTRA_CA_CERTS=FILE node app.js
  Java             keytool -importcert -noprompt -alias kactl-sandbox -file FILE -keystore sandbox.jks -storepass changeit
                   java -Djavax.net.ssl.trustStore=sandbox.jks -Djavax.net.ssl.trustStorePassword=changeit -jar app.jar
  Go               SSL_CERT_FILE=FILE ./app   (Linux; on Windows and macOS Go reads the system store: trust it there)
  .NET             reads the system store: trust it there (Windows: certutil; Linux: the Debian or Fedora line)
  curl             curl --cacert FILE https://${DEFAULT_TLS_HOSTNAME}/api/1.3/

A program that needs a host name (the official C++ SDK) also needs the name in the hosts file
(Windows: C:\\Windows\\System32\\drivers\\etc\\hosts; elsewhere /etc/hosts), for ${DEFAULT_TLS_HOSTNAME} or your --hostname:
  127.0.0.1 ${DEFAULT_TLS_HOSTNAME}

Examples:
  $ kactl sandbox ca
  $ kactl sandbox ca --pem > kactl-sandbox-ca.pem
  $ NODE_EXTRA_CA_CERTS="$(kactl sandbox ca --path)" node app.js`;
