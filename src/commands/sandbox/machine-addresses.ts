/**
 * This machine's addresses another program can reach a sandbox by without loopback: what the
 * current official C++ library needs, since it refuses any URL that is or resolves to loopback
 * (docs/testing-your-program.md, "C++"). IPv4 first; IPv6 link-local addresses are left out
 * (they need a zone, which URLs in those programs cannot carry).
 */
import os from 'node:os';

export function reachableAddresses(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): string[] {
  const found = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((entry) => !entry.internal && !isLoopbackAddress(entry.address) && !/^fe[89ab]/i.test(entry.address));
  const v4 = found.filter((entry) => entry.family === 'IPv4').map((entry) => entry.address);
  const v6 = found.filter((entry) => entry.family === 'IPv6').map((entry) => entry.address);
  return [...new Set([...v4, ...v6])];
}

/** 127.0.0.0/8, ::1, `localhost` and the names under it: what the C++ library calls loopback. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::ffff:127.0.0.1';
}
