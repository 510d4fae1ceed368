/**
 * The hosted KeyAuth service: its hosts and the Ed25519 public key compiled into every
 * official 1.3 SDK (docs/protocol/client-api.md §2.3). A profile pointing at one of these hosts verifies
 * answers with this key unless it names another.
 */
export const HOSTED_PUBLIC_KEY = '5586b4bc69c7a4b487e4563a4cd96afd39140f919bd31cea7d1c6a1e8439422b';

const HOSTED_DOMAINS = ['keyauth.win', 'keyauth.cc', 'keyauth.com'];

/** True for keyauth.win, keyauth.cc, keyauth.com and their subdomains. */
export function isHostedUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return HOSTED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
