/**
 * The VPN block without the online lookup: the real service asks ip-api.com whether an address
 * is a proxy or hosting address; the sandbox, which never leaves loopback, treats the app's own
 * list of CIDRs (`vpnranges`) as those addresses instead.
 */
import { BlockList, isIP } from 'node:net';
import { normalizeIp } from './ip.js';

/** Whether `cidr` is `address/prefix` with a valid address and prefix (or a bare address). */
export function isValidCidr(cidr: string): boolean {
  return parseCidr(cidr) !== undefined;
}

function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = cidr.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The ranges of a stored comma-separated list (blank entries skipped). */
export function splitRanges(list: string): string[] {
  return list.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Whether `ip` falls in one of the comma-separated `ranges`. Unparseable entries never match. */
export function isInVpnRanges(ip: string, ranges: string): boolean {
  const plain = normalizeIp(ip.trim());
  const version = isIP(plain);
  if (version === 0) return false;
  const list = new BlockList();
  for (const entry of splitRanges(ranges)) {
    const cidr = parseCidr(entry);
    if (cidr !== undefined) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}
