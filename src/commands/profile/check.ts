/**
 * `kactl profile add` checks a profile before it saves it, as `gh auth login` does: the server
 * answers at the base URL, the API is there (the seller API answers as a KeyAuth-style server
 * would), the seller key is accepted, and with an app name and ownerid the app's init is
 * accepted and its answer verifies with the public key. These are doctor's server checks
 * (src/commands/doctor/server-checks.ts), run on the profile's own values (not the environment's,
 * not another profile's), through a transport with the profile's timeout and trusted authority.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import type { ProfileData } from '../../config/types.js';
import { UsageError } from '../../errors.js';
import type { CheckResult } from '../doctor/results.js';
import { probeSellerKey, serverChecks } from '../doctor/server-checks.js';
import { resolveSettings } from '../../config/settings.js';
import { SellerApi } from '../../api/seller-api.js';

function readAuthority(name: string, caFile: string | undefined, read: (file: string) => string): string | undefined {
  if (caFile === undefined) return undefined;
  try {
    return read(caFile);
  } catch (error) {
    throw new UsageError(`The certificate authority of profile "${name}" (${caFile}) cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

export async function checkProfile(ctx: Context, name: string, profile: ProfileData): Promise<CheckResult[]> {
  const settings = resolveSettings({ flags: {}, env: {}, profileName: { value: name, source: 'flag' }, profile });
  const baseUrl = settings.baseUrl.value;
  if (baseUrl === undefined) throw new UsageError('A new profile needs --base-url.');
  const ca = readAuthority(name, settings.caFile.value, (file) => fs.readFileSync(file, 'utf8'));
  const { Transport } = await import('../../api/transport.js');
  const transport = new Transport({
    timeoutMs: settings.timeout.value * 1000,
    ...(ca === undefined ? {} : { ca }),
    signal: ctx.signal,
    ...(ctx.globals.verbose ? { verbose: (line: string) => ctx.verbose(line) } : {}),
  });
  try {
    return await serverChecks(
      {
        baseUrl,
        settings,
        transport,
        trySellerKey: async () => {
          // One read, paced in memory: a profile not yet saved has no budget shared with others.
          const api = new SellerApi({ baseUrl, sellerKey: settings.sellerKey.value ?? '', ratePerMinute: settings.sellerRate.value, transport, warn: (line) => ctx.output.warn(line), onWait: () => undefined, now: ctx.now, signal: ctx.signal });
          await probeSellerKey(api);
        },
        now: ctx.now,
      },
      {
        clock: false,
        missing: {
          sellerKey: 'no seller key given',
          app: 'give --app-name and --ownerid to check the app',
          publicKey: 'no public key given (--public-key) and none known for this server: client commands will refuse to call it until one is set (or --signatures skip)',
          secret: 'no app secret given (--secret) to check API 1.2 signatures',
        },
      },
    );
  } finally {
    await transport.close();
  }
}
