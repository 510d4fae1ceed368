/**
 * Which web pages may read the sandbox's answers, and which names it answers to (issue 29
 * item 9). A page in the tester's browser could read the app name and ownerid from the home page
 * and drive the client API while every answer said `Access-Control-Allow-Origin: *`; and a page
 * whose own name was made to resolve to 127.0.0.1 (DNS rebinding) reached the sandbox as a
 * same-origin page, past CORS altogether.
 *
 * - **Origins.** The CORS header goes only to pages served from this machine's loopback
 *   (`http(s)://localhost`, `*.localhost`, `127.x.x.x`, `[::1]`, any port: a React or Next.js
 *   example on `localhost:3000`) and to the origins `--cors ORIGIN` names (`--cors '*'`: every
 *   origin, as before); it echoes the origin, with `Vary: Origin`.
 * - **Private Network Access.** A preflight asking `Access-Control-Request-Private-Network`
 *   comes from a public or LAN page reaching this machine: refused (403, no CORS header) unless
 *   `--cors` names that exact origin.
 * - **Host.** A request is answered only when its Host names the sandbox: a loopback name or
 *   address, the address it is bound to (with a wildcard bind, this machine's addresses and name),
 *   the certificate's `--hostname`, the customer panel URL's host, or one of the hosted service's
 *   own names (keyauth.win, keyauth.cc, keyauth.com and their subdomains). The last are a known
 *   alias, not a hole: keyauth-js sends `Host: keyauth.win` whatever its base URL, and an SDK
 *   pointed at the sandbox through a hosts-file line sends the hosted name; a rebinding page
 *   would have to be served from KeyAuth's own domains. A request without Host (HTTP/1.0) is
 *   answered; HTTP/1.1 without it is refused earlier (route-stage.ts).
 */
import os from 'node:os';
import { normalizeIp } from '../domain/ip.js';
import { isLoopbackName, isOwnName, parseHostHeader, type SiteNames } from './site-names.js';

/** The hosted service's names, accepted as Host (see above). */
const HOSTED_DOMAINS = ['keyauth.win', 'keyauth.cc', 'keyauth.com'];

export interface OriginPolicyOptions {
  /** Origins answered besides loopback pages (`--cors`); `*` answers every origin. */
  readonly cors: readonly string[];
  /** Where the sandbox serves: its TLS host name and bound address (site-names.ts). */
  readonly site: () => SiteNames;
  /** Further names the sandbox is reached by: the panel URL's host. */
  readonly names: readonly string[];
}

/** The answer to a request without an Origin (a program, not a page): one object for all of them. */
const NO_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export interface OriginPolicy {
  /** The CORS headers for a request with these headers (none for an origin not answered). */
  corsHeaders(headers: Readonly<Record<string, string | string[] | undefined>>, method: string | undefined): Readonly<Record<string, string>>;
  /** Whether a Private-Network-Access preflight from `origin` is granted. */
  grantsPrivateNetwork(origin: string | undefined): boolean;
  /** Whether the Host header names this sandbox. */
  hostAllowed(host: string | undefined): boolean;
}

/** `http://LocalHost:3000/` → `http://localhost:3000`; undefined for anything but an http(s) origin. */
export function normalizeOrigin(raw: string): string | undefined {
  if (raw === '*') return raw;
  try {
    const url = new URL(raw);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function isHostedName(name: string): boolean {
  return HOSTED_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** Everything a wildcard bind (0.0.0.0, ::) is reached by: this machine's addresses and its name. */
function wildcardNames(): Set<string> {
  const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => normalizeIp(entry.address.toLowerCase())));
  const machine = os.hostname().toLowerCase();
  return new Set([machine, `${machine}.local`, ...addresses]);
}

function isLoopbackOrigin(origin: string): boolean {
  const host = parseHostHeader(new URL(origin).host);
  return host !== undefined && isLoopbackName(host.name);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function createOriginPolicy(options: OriginPolicyOptions): OriginPolicy {
  const listed = new Set(options.cors.map((origin) => normalizeOrigin(origin)).filter((origin): origin is string => origin !== undefined));
  const anyOrigin = listed.has('*');
  const extraNames = new Set(options.names.map((name) => parseHostHeader(name)?.name).filter((name): name is string => name !== undefined));
  let machineNames: Set<string> | undefined;
  const isMachineName = (name: string): boolean => {
    const bound = options.site().bindHost.replace(/^\[|\]$/g, '');
    if (bound !== '0.0.0.0' && bound !== '::') return false;
    machineNames ??= wildcardNames();
    return machineNames.has(name) || machineNames.has(normalizeIp(name));
  };
  const allowOrigin = (raw: string | undefined): string | undefined => {
    const origin = raw === undefined ? undefined : normalizeOrigin(raw);
    if (origin === undefined || origin === '*') return anyOrigin && raw !== undefined ? '*' : undefined;
    if (anyOrigin) return '*';
    return listed.has(origin) || isLoopbackOrigin(origin) ? origin : undefined;
  };
  const grantsPrivateNetwork = (raw: string | undefined): boolean => {
    const origin = raw === undefined ? undefined : normalizeOrigin(raw);
    return origin !== undefined && origin !== '*' && listed.has(origin);
  };
  return {
    grantsPrivateNetwork,
    corsHeaders(headers, method): Readonly<Record<string, string>> {
      const origin = headerText(headers['origin']);
      if (method === 'OPTIONS' && isPrivateNetworkPreflight(headers)) {
        return grantsPrivateNetwork(origin) ? { 'access-control-allow-origin': origin!, 'access-control-allow-private-network': 'true', vary: 'Origin' } : {};
      }
      const allowed = allowOrigin(origin);
      if (allowed === undefined) return origin === undefined ? NO_CORS_HEADERS : { vary: 'Origin' };
      return allowed === '*' ? { 'access-control-allow-origin': '*' } : { 'access-control-allow-origin': allowed, vary: 'Origin' };
    },
    hostAllowed(host) {
      if (host === undefined) return true;
      const parsed = parseHostHeader(host);
      if (parsed === undefined) return false;
      const { name } = parsed;
      return isOwnName(name, options.site()) || isOwnName(normalizeIp(name), options.site()) || extraNames.has(name) || isHostedName(name) || isMachineName(name);
    },
  };
}

/** A CORS preflight that asks for Private Network Access (Chrome's `Access-Control-Request-Private-Network: true`). */
export function isPrivateNetworkPreflight(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  return headerText(headers['access-control-request-private-network'])?.trim().toLowerCase() === 'true';
}
