/**
 * Clients nobody on this project wrote, for the HTTPS sandbox tests: node:https, curl and
 * Python's requests. Each trusts only what it is given (`ca`), follows no redirect, and maps a
 * host name to 127.0.0.1 the way a hosts-file line would, without touching /etc/hosts.
 */
import { execFile, spawnSync } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';

export interface HttpsAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The host name the certificate was checked against (the TLS server name sent). */
  readonly servername: string | undefined;
  readonly authorized: boolean;
  readonly remotePort: number | undefined;
  readonly protocol: string | null;
}

/** A hosts-file line, as a lookup: `names` resolve to 127.0.0.1, nothing else resolves. */
export function hostsLookup(names: readonly string[]): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (!names.includes(hostname) && hostname !== 'localhost' && hostname !== '127.0.0.1') {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      return;
    }
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as LookupFunction;
}

/** One POST form over node:https, trusting `ca` only (undefined: node's usual authorities). */
export function httpsPost(url: string, form: Readonly<Record<string, string>>, options: { ca?: string; hosts?: readonly string[] } = {}): Promise<HttpsAnswer> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        agent: false,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        ...(options.hosts === undefined ? {} : { lookup: hostsLookup(options.hosts) }),
        minVersion: 'TLSv1.2',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'KeyAuth' },
      },
      (res) => {
        // Read while the connection is open: once the answer ends, the socket may be gone.
        const socket = res.socket as TLSSocket & { servername?: string };
        const connection = { servername: socket.servername, authorized: socket.authorized, remotePort: socket.remotePort, protocol: socket.getProtocol() };
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
            body: Buffer.concat(chunks),
            ...connection,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs a command; resolves with its exit code and output (never rejects on a non-zero exit). */
export function run(file: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { env: options.env ?? process.env, timeout: 30_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1;
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A python3 that imports requests (the machine's own, or Debian's python3-requests), or undefined. */
export function pythonWithRequests(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3', '/usr/local/bin/python3']) {
    const probe = spawnSync(candidate, ['-c', 'import requests'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

export function hasCurl(): boolean {
  return spawnSync('curl', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * A Python script doing what a requests-based client does: POST a form, `verify=` the given
 * authority (or the default bundle), no redirects; a host name mapped to 127.0.0.1 as a hosts
 * line would. Prints `{"status","headers","body"}` or `{"error": "<exception class>"}`.
 */
export const PYTHON_REQUESTS_CLIENT = `
import json, socket, sys
import requests
url, verify, hosts, form = sys.argv[1], sys.argv[2], sys.argv[3].split(','), json.loads(sys.argv[4])
real = socket.getaddrinfo
def hosts_file(host, *args, **kwargs):
    return real('127.0.0.1' if host in hosts else host, *args, **kwargs)
socket.getaddrinfo = hosts_file
try:
    r = requests.post(url, data=form, verify=(True if verify == '-' else verify), allow_redirects=False, timeout=20)
    print(json.dumps({"status": r.status_code, "headers": dict((k.lower(), v) for k, v in r.headers.items()), "body": r.text}))
except requests.exceptions.SSLError as e:
    print(json.dumps({"error": "SSLError"}))
`;

/**
 * What a TLS client that trusts only `caPem` says of a server presenting `leaf` for `name`: "ok",
 * or the verification error's code and message (a broken name constraint reads "permitted
 * subtree violation"). Node's TLS is OpenSSL's, as libcurl's is on most systems.
 */
export async function tlsVerdict(caPem: string, leaf: { certPem: string; keyPem: string }, name: string): Promise<string> {
  const server = tls.createServer({ cert: leaf.certPem, key: leaf.keyPem }, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        port,
        ca: caPem,
        // An address is checked as one (no SNI for it); a name is sent as the server name.
        ...(/^[\d.]+$|:/.test(name) ? {} : { servername: name }),
        checkServerIdentity: (_host, cert) => tls.checkServerIdentity(name, cert),
      });
      socket.once('secureConnect', () => {
        socket.destroy();
        resolve('ok');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${error.code ?? ''} ${error.message}`));
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
