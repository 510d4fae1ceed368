/**
 * The client IP. The socket address, always, unless the sandbox was told it sits behind a proxy
 * (`trustProxy`): the real server trusts X-Forwarded-For from anyone, which lets any client
 * pick the IP that bans and blacklists see; that is not copied.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { normalizeIp } from '../domain/ip.js';

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first !== undefined && isIP(normalizeIp(first)) !== 0) return normalizeIp(first);
  }
  return normalizeIp(req.socket.remoteAddress ?? '');
}
