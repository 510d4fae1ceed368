/**
 * The names an HTTPS sandbox's certificate carries, and the names its certificate authority may
 * sign for at all. The certificate names the chosen `--hostname` (a host name or an address),
 * `localhost`, `127.0.0.1`, `::1`, and the bound address when it is another one. The authority
 * is narrow (docs/security.md, 29.3): it may sign only for loopback names and addresses, the
 * reserved `.test` and `.localhost` names, and the names and addresses the user chose for it,
 * so its key, were it ever copied, is no key for anybody's real site. Kept apart from the
 * certificate code so `kactl sandbox start` can check `--hostname` while it parses the command
 * line without loading any of it.
 */
import { BlockList, isIP } from 'node:net';

/** The host name a certificate names when none is chosen: `.test` is reserved, so it is never a real site's. */
export const DEFAULT_TLS_HOSTNAME = 'kactl.test';

/**
 * What an authority may sign for: DNS constraints (RFC 5280: `name` permits the name and the
 * names under it, `.name` only the names under it) and address blocks as `address/prefix`.
 */
export interface PermittedNames {
  readonly dns: readonly string[];
  readonly ip: readonly string[];
}

/** What every authority may sign for; only these are permitted without asking the user. */
export const BASE_PERMITTED: PermittedNames = { dns: ['localhost', '.localhost', '.test'], ip: ['127.0.0.0/8', '::1/128'] };

/** Labels of letters, digits and inner hyphens, dot-separated; at most 253 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** An address without brackets, in its usual short form (`::1`, not `0:0::1`), or undefined for a name. */
export function normalAddress(raw: string): string | undefined {
  const bare = raw.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family === 6) return new URL(`http://[${bare}]/`).hostname.replace(/^\[|\]$/g, '');
  return undefined;
}

/**
 * Checks a `--hostname` and returns it in lower case (an address in its short form), or throws
 * an Error saying what is wrong. An address is taken too: the certificate then carries it as an
 * IP address, which is how a program that refuses loopback (the current official C++ library)
 * reaches a sandbox at a non-loopback address of the machine (docs/testing-your-program.md).
 */
export function checkTlsHostname(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  const address = normalAddress(name);
  if (address !== undefined) {
    if (address === '0.0.0.0' || address === '::') {
      throw new Error(`--hostname ${raw} names no machine; give the address programs connect to (such as this machine's LAN address).`);
    }
    return address;
  }
  const labels = name.split('.');
  // An all-digit last label reads as an address to resolvers (127.1), never as a name.
  if (name.length === 0 || name.length > 253 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    throw new Error(`"${raw}" is not a host name or an IP address; give one such as ${DEFAULT_TLS_HOSTNAME} (letters, digits, hyphens and dots).`);
  }
  return name;
}

/** The names a server certificate carries for `hostname`, plus `bindHost` when it is another specific address or name. */
export function certificateNames(hostname: string, bindHost?: string): string[] {
  const dns = ['localhost'];
  const ips = ['127.0.0.1', '::1'];
  const add = (raw: string): void => {
    const address = normalAddress(raw);
    if (address === undefined) dns.push(raw.toLowerCase());
    else if (address !== '0.0.0.0' && address !== '::') ips.push(address);
  };
  add(hostname);
  if (bindHost !== undefined) add(bindHost);
  // The chosen name first: it becomes the certificate's common name.
  const named = normalAddress(hostname) === undefined ? [hostname.toLowerCase()] : [];
  return [...new Set([...named, ...dns, ...ips])];
}

/** Whether `name` falls under the DNS constraint `base`, as TLS libraries read it (OpenSSL's nc_dns). */
function dnsPermits(base: string, name: string): boolean {
  if (base.startsWith('.')) return name.endsWith(base) && name.length > base.length;
  return name === base || name.endsWith(`.${base}`);
}

function blockListOf(blocks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const block of blocks) {
    const [address = '', prefix = ''] = block.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** Whether an authority with these constraints may sign for `name` (a host name or an address). */
export function permits(permitted: PermittedNames, name: string): boolean {
  const address = normalAddress(name);
  if (address === undefined) return permitted.dns.some((base) => dnsPermits(base, name.toLowerCase()));
  return blockListOf(permitted.ip).check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** The names of `names` an authority with these constraints may not sign for. */
export function outsideNames(permitted: PermittedNames, names: readonly string[]): string[] {
  return names.filter((name) => !permits(permitted, name));
}

/** The constraints with each of `names` added as itself: a host name with the names under it, an address alone. */
export function permittedWith(permitted: PermittedNames, names: readonly string[]): PermittedNames {
  const dns = [...permitted.dns];
  const ip = [...permitted.ip];
  for (const name of outsideNames(permitted, names)) {
    const address = normalAddress(name);
    if (address === undefined) dns.push(name.toLowerCase());
    else ip.push(`${address}/${isIP(address) === 6 ? 128 : 32}`);
  }
  return { dns: [...new Set(dns)], ip: [...new Set(ip)] };
}

/** The names and addresses beyond the base ones, as people read them (`keyauth.win`, `192.0.2.7`). */
export function chosenNames(permitted: PermittedNames): string[] {
  const dns = permitted.dns.filter((name) => !BASE_PERMITTED.dns.includes(name));
  const ip = permitted.ip.filter((block) => !BASE_PERMITTED.ip.includes(block)).map((block) => block.replace(/\/(32|128)$/, ''));
  return [...dns, ...ip];
}

/** The constraints in words: `localhost, *.localhost, *.test, 127.0.0.0/8, ::1` and the chosen ones. */
export function describePermitted(permitted: PermittedNames): string {
  const dns = permitted.dns.map((name) => (name.startsWith('.') ? `*${name}` : name));
  const ip = permitted.ip.map((block) => block.replace(/\/(32|128)$/, ''));
  return [...dns, ...ip].join(', ');
}
