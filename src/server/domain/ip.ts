/** IP address helpers. */
import { isIP } from 'node:net';

/** `::ffff:1.2.3.4` → `1.2.3.4`; other values unchanged. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

/**
 * Whether `ip` is a loopback address (127.0.0.0/8, ::1, IPv4-mapped loopback). Bans never
 * blacklist these: every sandbox client shares loopback (docs/design.md, "Bans and loopback").
 */
export function isLoopbackIp(ip: string): boolean {
  const plain = normalizeIp(ip.trim());
  if (isIP(plain) === 4) return plain.startsWith('127.');
  if (isIP(plain) === 6) return /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(plain.toLowerCase());
  return false;
}
