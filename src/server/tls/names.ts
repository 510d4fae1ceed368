/**
 * The names an HTTPS sandbox's certificate carries: the chosen host name (`--hostname`, checked
 * here), `localhost`, `127.0.0.1`, `::1`, and the bound address when it is another one. Kept
 * apart from the certificate code so `kactl sandbox start` can check `--hostname` while it
 * parses the command line without loading any of it.
 */
import { isIP } from 'node:net';

/** The host name a certificate names when none is chosen: `.test` is reserved, so it is never a real site's. */
export const DEFAULT_TLS_HOSTNAME = 'kactl.test';

/** Labels of letters, digits and inner hyphens, dot-separated; at most 253 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Checks a `--hostname` and returns it in lower case, or throws an Error saying what a host
 * name is. An IP address is refused: the certificate already names the loopback addresses, and
 * a program that needs a name (the official C++ library) refuses addresses anyway.
 */
export function checkTlsHostname(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(name) !== 0 || isIP(name.replace(/^\[|\]$/g, '')) !== 0) {
    throw new Error(`--hostname takes a host name, not an address ("${raw}"); the certificate already names 127.0.0.1 and ::1.`);
  }
  if (name.length === 0 || name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) {
    throw new Error(`"${raw}" is not a host name; give one such as ${DEFAULT_TLS_HOSTNAME} (letters, digits, hyphens and dots).`);
  }
  return name;
}

/** The names a server certificate carries for `hostname`, plus `bindHost` when it is another specific address or name. */
export function certificateNames(hostname: string, bindHost?: string): string[] {
  const dns = [hostname, 'localhost'];
  const ips = ['127.0.0.1', '::1'];
  const extra = bindHost?.replace(/^\[|\]$/g, '').toLowerCase();
  if (extra !== undefined && extra !== '0.0.0.0' && extra !== '::') {
    if (isIP(extra) !== 0) {
      if (!ips.includes(extra)) ips.push(extra);
    } else if (!dns.includes(extra)) {
      dns.push(extra);
    }
  }
  return [...new Set(dns), ...ips];
}
