/**
 * The names a sandbox answers to, and the origin a client reached it by. A sandbox is reached by
 * a loopback name or address, by its TLS host name (`--hostname`, which keyauth-js sends as
 * `Host: keyauth.win` whatever the URL), or by the address it is bound to (`--host`, the route
 * of a program that refuses loopback). The links it gives out (`customerPanelLink`) use the name
 * and port the client used, when that is one of these; any other Host header is never echoed.
 */
import { isIP } from 'node:net';

/** What startSandbox knows of where it serves (the port once it listens). */
export interface SiteNames {
  readonly scheme: 'http' | 'https';
  /** The TLS certificate's chosen host name or address (`--hostname`), when HTTPS. */
  readonly hostname: string | undefined;
  /** The address or name it is bound to (`--host`); `0.0.0.0` and `::` are every address. */
  readonly bindHost: string;
  /** The port it listens on (0 until then). */
  readonly port: number;
}

/** A Host header split into its name (lower case, IPv6 without brackets) and port, or undefined when it is not one. */
export function parseHostHeader(value: string | undefined): { name: string; port: number | undefined } | undefined {
  if (value === undefined || value === '') return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return undefined;
  const name = match[1]!.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return { name, port: match[2] === undefined ? undefined : Number(match[2]) };
}

/** localhost, *.localhost, ::1 or 127.0.0.0/8 (a Host header's or URL's name, as parseHostHeader gives it). */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

/**
 * Whether a host name (from a Host header) names this sandbox: loopback, its TLS host name, or
 * its bound address. With a wildcard bind, addresses of this machine are decided by the caller.
 */
export function isOwnName(name: string, site: SiteNames): boolean {
  const bound = site.bindHost.replace(/^\[|\]$/g, '').toLowerCase();
  return isLoopbackName(name) || name === site.hostname || (bound !== '0.0.0.0' && bound !== '::' && name === bound);
}

/**
 * The origin (`https://name[:port]`) the client reached us by, when its Host header names this
 * sandbox; else `fallback`. The port is the Host header's, or the one listened on; it is left
 * out when it is the scheme's usual one.
 */
export function originFor(hostHeader: string | undefined, site: SiteNames, fallback: string): string {
  const host = parseHostHeader(hostHeader);
  if (host === undefined || !isOwnName(host.name, site)) return fallback;
  const port = host.port ?? site.port;
  const usual = site.scheme === 'https' ? 443 : 80;
  const name = isIP(host.name) === 6 ? `[${host.name}]` : host.name;
  return `${site.scheme}://${name}${port === usual || port === 0 ? '' : `:${port}`}`;
}
