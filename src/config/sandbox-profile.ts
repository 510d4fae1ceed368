/**
 * The profile that points kactl at a running sandbox: what `kactl sandbox start` saves as
 * "sandbox", what the demo saves for its in-process sandbox, and what `kactl test` gives each flow.
 */
import type { ProfileData } from './types.js';
import type { SandboxInfo } from '../server/start.js';

/** Seller calls a sandbox allows per minute when its rate limit is on. */
export const SANDBOX_SELLER_RATE = 120;

export function sandboxProfileFields(info: SandboxInfo, options: { rateLimited: boolean }): ProfileData {
  return {
    baseUrl: info.baseUrl,
    appName: info.app.name,
    ownerid: info.app.ownerid,
    appVersion: info.app.version,
    sellerKey: info.sellerKey,
    publicKey: info.publicKey,
    secret: info.app.secret,
    adminToken: info.adminToken,
    // HTTPS: the profile trusts this sandbox's authority (and only it); over HTTP an earlier
    // HTTPS sandbox's authority is dropped (undefined removes the field).
    caFile: info.caFile,
    // Without the server's limit there is nothing to pace for.
    sellerRate: options.rateLimited ? SANDBOX_SELLER_RATE : 0,
  };
}
