/**
 * Before an HTTPS sandbox starts: the data folder's certificate authority must be allowed to
 * sign for the certificate's names. It may sign only for loopback, `.test`, `.localhost` and the
 * names chosen for it (docs/security.md, 29.3); a `--hostname` or `--host` outside those (such as
 * `keyauth.win`, which keyauth-js needs, or a LAN address for the C++ library) makes a new
 * authority that may also sign for it, only after the user says so (a prompt, or `--yes`).
 * Done in the process the user runs, so a `--detach` server finds the authority ready.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirmOne } from '../../io/ask.js';
import { certificateNames, DEFAULT_TLS_HOSTNAME, describePermitted, permittedWith } from '../../server/tls/names.js';

export async function prepareAuthority(ctx: Context, options: { host: string; hostname?: string | undefined }): Promise<void> {
  const { AuthorityError, AuthorityNamesError, loadOrCreateAuthority } = await import('../../server/tls/authority.js');
  const names = certificateNames(options.hostname ?? DEFAULT_TLS_HOSTNAME, options.host);
  try {
    await loadOrCreateAuthority(ctx.dataDir, ctx.now(), { names });
    return;
  } catch (error) {
    if (!(error instanceof AuthorityError)) throw error;
    if (!(error instanceof AuthorityNamesError)) throw new UsageError(error.message);
    const outside = error.outside.join(', ');
    ctx.output.warn(
      `The sandbox's certificate authority may sign only for ${describePermitted(error.permitted)}; ${outside} ${error.outside.length === 1 ? 'is' : 'are'} outside that. ` +
        `An authority that may sign for ${outside} is a key to ${outside} for every program that trusts it: it stays in ${ctx.dataDir}, mode 0600.` +
        (error.exists ? ' Programs that trust the current authority must then trust the new one.' : ''),
    );
    await confirmOne(ctx, `Make a certificate authority that may also sign for ${outside}?`);
    const made = await loadOrCreateAuthority(ctx.dataDir, ctx.now(), { names, widen: true });
    const permitted = made.permitted ?? permittedWith(error.permitted, error.outside);
    ctx.output.note(`Made a new certificate authority (${made.certificate.subject.split('\n')[0] ?? ''}) that may sign for ${describePermitted(permitted)}; trust it as kactl sandbox ca --help says.`);
    if (error.exists) await warnRunning(ctx);
  }
}

/** HTTPS sandboxes of this data folder still serve certificates of the authority that was replaced. */
export async function warnRunning(ctx: Context): Promise<void> {
  const { runningSandboxes } = await import('./profile.js');
  const running = (await runningSandboxes(ctx)).filter((entry) => typeof entry.caFile === 'string');
  if (running.length === 0) return;
  ctx.output.warn(
    `${running.length === 1 ? 'A running HTTPS sandbox' : `${running.length} running HTTPS sandboxes`} (${running.map((entry) => entry.baseUrl ?? `pid ${entry.pid}`).join(', ')}) still serve${running.length === 1 ? 's' : ''} a certificate of the old authority: restart ${running.length === 1 ? 'it' : 'them'} (kactl sandbox stop, then start).`,
  );
}
