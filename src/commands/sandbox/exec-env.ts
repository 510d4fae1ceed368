/**
 * The environment `kactl sandbox exec` gives its command: the caller's, plus the sandbox's
 * coordinates under the names kactl itself reads (src/env.ts), so `kactl client …` and
 * `kactl seller …` run as the command reach the sandbox with no profile, and a program under
 * test reads the same names. An HTTPS sandbox's authority is named for kactl (KACTL_CA_FILE) and
 * for Node programs (NODE_EXTRA_CA_CERTS, added to Node's roots, not replacing them).
 *
 * kactl run inside the command keeps its sessions in `configDir`, a folder of this run
 * (KACTL_CONFIG_DIR): the caller's profiles are neither read nor written, so a `kactl client login`
 * inside cannot change them and a profile of another server cannot be picked by mistake. The data
 * folder stays the caller's (KACTL_DATA_DIR named explicitly, since it would otherwise follow the
 * config folder): the sandbox registry there is what lets `kactl sandbox status` inside see this
 * sandbox and refuses a second sandbox on a --data store.
 *
 * KACTL_RETRIES is 0 unless the caller set it: kactl inside answers a rate-limit or 503 fault at
 * once instead of waiting it out.
 */
import type { EnvRecord } from '../../env.js';
import type { SandboxInfo } from '../../server/start.js';
import { SANDBOX_SELLER_RATE } from '../../config/sandbox-profile.js';

export function execEnvironment(base: EnvRecord, info: SandboxInfo, options: { rateLimited: boolean; configDir: string; dataDir: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  Object.assign(env, {
    KACTL_BASE_URL: info.baseUrl,
    KACTL_APP_NAME: info.app.name,
    KACTL_OWNERID: info.app.ownerid,
    KACTL_APP_VERSION: info.app.version,
    KACTL_APP_SECRET: info.app.secret,
    KACTL_PUBLIC_KEY: info.publicKey,
    KACTL_SELLER_KEY: info.sellerKey,
    KACTL_ADMIN_TOKEN: info.adminToken,
    // Without the server's limit there is nothing to pace for.
    KACTL_SELLER_RATE: String(options.rateLimited ? SANDBOX_SELLER_RATE : 0),
    KACTL_CONFIG_DIR: options.configDir,
    KACTL_DATA_DIR: options.dataDir,
  });
  // A test run wants a fault's answer at once, not kactl's waits and retries around it (a
  // rate-limit fault asks for 60 s); a caller who wants retries says so.
  if (env.KACTL_RETRIES === undefined || env.KACTL_RETRIES === '') env.KACTL_RETRIES = '0';
  // A profile named by the caller's environment would not exist in the run's own folder.
  delete env.KACTL_PROFILE;
  if (info.caFile !== undefined) {
    env.KACTL_CA_FILE = info.caFile;
    env.NODE_EXTRA_CA_CERTS = info.caFile;
  } else {
    // An authority from the caller's environment belongs to another server.
    delete env.KACTL_CA_FILE;
  }
  return env;
}
