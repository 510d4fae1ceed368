/**
 * The profile that points kactl at a running sandbox: what `kactl sandbox start` saves as
 * "sandbox", and what the demo saves for its in-process sandbox.
 */
import type { ProfileData } from '../../config/types.js';
import type { SandboxInfo } from '../../server/start.js';

export const SANDBOX_PROFILE = 'sandbox';

/** Seller calls a sandbox allows per minute when its rate limit is on. */
const SANDBOX_SELLER_RATE = 120;

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
    // Without the server's limit there is nothing to pace for.
    sellerRate: options.rateLimited ? SANDBOX_SELLER_RATE : 0,
  };
}
