/**
 * Doctor's look at the sandbox's certificate authority (`<data folder>/ca/`), with the rules a
 * start applies (src/server/tls/authority.ts): its folder and files ours alone, key and
 * certificate belonging together, name constraints present, not ended. Nothing is made or
 * changed: a data folder without an authority passes.
 */
import { describePermitted } from '../../server/tls/names.js';
import { fail, pass, type CheckResult } from './results.js';

const CHECK = 'certificate authority';

export async function checkAuthority(dataDir: string, now: number): Promise<CheckResult> {
  const { AuthorityError, authorityWarnings, checkNotExpired, existingAuthority } = await import('../../server/tls/authority.js');
  try {
    const authority = await existingAuthority(dataDir);
    if (authority === undefined) return pass(CHECK, 'none in this data folder yet (the first `kactl sandbox start --tls` makes one)');
    checkNotExpired(authority, now);
    const warnings = authorityWarnings(authority, now);
    if (authority.permitted === undefined) return fail(CHECK, warnings[0] ?? `${authority.certFile} has no name constraints`);
    const until = new Date(authority.certificate.validTo).toISOString().slice(0, 10);
    const soon = warnings.length > 0 ? `; ${warnings.join(' ')}` : '';
    return pass(CHECK, `${authority.certFile}, yours alone, may sign for ${describePermitted(authority.permitted)}, until ${until}${soon}`);
  } catch (error) {
    if (error instanceof AuthorityError) return fail(CHECK, error.message.replace(/\.$/, ''));
    throw error;
  }
}
