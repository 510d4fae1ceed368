/**
 * startSandbox(options): open (or create) the store, seed it, start the HTTP server, and hand
 * back the ready line of docs/contracts.md ("Sandbox start") plus a clean `close()`.
 */
import type { AddressInfo, Server } from 'node:net';
import { clientHandlers } from './client/index.js';
import { clientPages } from './client/pages.js';
import { domainNow } from './domain/clock.js';
import { sweepPanelSignIns } from './domain/panel-sign-ins.js';
import { homePages } from './home/home-page.js';
import { panelPages } from './panel/panel-pages.js';
import { resellerPages } from './reseller/shop-hook.js';
import type { HandlerTable } from './dispatch/types.js';
import { createOriginPolicy, type OriginPolicy } from './http/origin-policy.js';
import { createSandboxServer } from './http/server.js';
import { dashboardPages } from './ui/dashboard-pages.js';
import { FaultBook } from './faults/book.js';
import { DEFAULT_LOG_LIMIT, RequestRecorder } from './inspector/recorder.js';
import type { PageRoute } from './http/pages.js';
import type { SiteNames } from './http/site-names.js';
import { sellerHandlers } from './seller/index.js';
import { loadOrCreateIdentity } from './store/identity.js';
import { readLastPort, recordLastPort } from './store/last-port.js';
import { SandboxConfigError, seedStore } from './store/seed.js';
import { openStore, type Store } from './store/store.js';

export { SandboxConfigError };
export type { OptionSpelling, SandboxOptionName } from './store/seed.js';

/** How often expired customer panel sign-ins are dropped. */
const PANEL_SWEEP_MS = 60_000;

export interface SandboxOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 0 (see `reuseLastPort`). */
  readonly port?: number;
  /**
   * Without `port`: listen on the port this store's sandbox last listened on when it is free,
   * else on a free one (`RunningSandbox.lastPort` says which happened). Default false.
   */
  readonly reuseLastPort?: boolean;
  /** Store: a file path (its folder is created) or `:memory:`. */
  readonly data: string;
  /** Fix the seeded app's name / ownerid / seller key (checked against an existing store). */
  readonly appName?: string | undefined;
  readonly ownerid?: string | undefined;
  readonly sellerKey?: string | undefined;
  /**
   * Status of `success:false` answers: 200, the hosted service's habit (default; the seller API's
   * empty lists, unknown key and refused apps keep the hosted 406 / 404 / 403), or 400, the
   * spec-strict mode (docs/design.md, "HTTP status of a failure").
   */
  readonly failureStatus?: 200 | 400;
  /** Enforce the client (200/min per app) and seller (120/min per key) rate limits. Default true. */
  readonly rateLimit?: boolean;
  /**
   * Origins whose pages may read the sandbox's answers (CORS), besides pages served from this
   * machine's loopback (`http://localhost:3000`), which always may; `'*'` lets every page read
   * them. Default: none besides loopback pages (http/origin-policy.ts).
   */
  readonly cors?: readonly string[];
  /** Take the client IP from X-Forwarded-For (only behind a proxy you run). Default false. */
  readonly trustProxy?: boolean;
  /** Base URL the customer panel link advertises (default: the sandbox's own). */
  readonly panelUrl?: string;
  /** Clock in milliseconds since the epoch (tests). Default Date.now. */
  readonly now?: () => number;
  /** Diagnostic lines (one per request, errors). Never receives secrets. Default: dropped. */
  readonly log?: (line: string) => void;
  /**
   * Serve HTTPS: a certificate for `hostname` (a host name or an address; default kactl.test),
   * localhost, 127.0.0.1, ::1 and the bound address, made at start and signed by the certificate
   * authority of the kactl data folder `dataDir` (made there on first use; see tls/authority.ts).
   * The authority signs only for loopback, `.test`, `.localhost` and the names chosen for it: a
   * name or bound address outside those is refused (AuthorityNamesError, as a SandboxConfigError)
   * unless `widenAuthority`, which makes a new authority that may also sign for it.
   */
  readonly tls?: { readonly dataDir: string; readonly hostname?: string | undefined; readonly widenAuthority?: boolean | undefined };
  /**
   * Requests the request inspector keeps (the newest), in the store: default 10,000; 0 records
   * nothing (and drops what an earlier run kept).
   */
  readonly logLimit?: number;
  /**
   * Tests: how long records wait before they are written, how often live readers get a
   * keep-alive, and how many may follow and how far behind (inspector/recorder.ts).
   */
  readonly inspectorTiming?: {
    readonly flushMs?: number;
    readonly heartbeatMs?: number;
    readonly maxFollowers?: number;
    readonly followerLimits?: { readonly maxUnreadBytes?: number; readonly stallMs?: number };
  };
  /** Extra or replacement handlers and pages, merged over the built-in ones (tests, experiments). */
  readonly handlers?: { readonly client?: HandlerTable; readonly seller?: HandlerTable; readonly pages?: readonly PageRoute[] };
}

/** The `--json` ready line, exactly: `{"baseUrl","app":{"name","ownerid","secret","version"},"sellerKey","publicKey","adminToken"}`. */
export interface SandboxInfo {
  readonly baseUrl: string;
  /**
   * Only when the sandbox is bound to an address other machines can reach (`--host 0.0.0.0`):
   * the real bind address, e.g. `http://0.0.0.0:8787`. `baseUrl` stays the address this machine uses.
   */
  readonly listen?: string;
  readonly app: { readonly name: string; readonly ownerid: string; readonly secret: string; readonly version: string };
  readonly sellerKey: string;
  /** Ed25519 public key, 64 hex characters (raw 32 bytes). */
  readonly publicKey: string;
  readonly adminToken: string;
  /** HTTPS only: the certificate authority's certificate (PEM file) clients must trust. */
  readonly caFile?: string;
  /** HTTPS only: the host name the certificate names besides localhost and the loopback addresses. */
  readonly hostname?: string;
}

/** The store's last port, and whether the sandbox listens on it again (false: it was in use, another was taken). */
export interface LastPort {
  readonly port: number;
  readonly reused: boolean;
}

export interface RunningSandbox {
  readonly baseUrl: string;
  /** Bound to something other than loopback: other machines can reach it. */
  readonly exposed: boolean;
  readonly info: SandboxInfo;
  /** The open store, for in-process tools and tests (the domain functions take it). */
  readonly store: Store;
  /** With `reuseLastPort`, when the store had a last port: whether it was taken again, or was busy. */
  readonly lastPort?: LastPort;
  /** What the person starting it should know (an authority ending soon, or one without name constraints). */
  readonly warnings: readonly string[];
  /**
   * Writes the request inspector's buffered records to the store now: before a copy of the store
   * is taken or put back (kactl/sandbox's snapshots), so the request log moves with the data.
   */
  flushRequestLog(): void;
  /** Stops accepting, finishes in-flight requests, closes the store. Safe to call twice. */
  close(): Promise<void>;
}

/** The options a start cannot go on without, checked; with their defaults. */
function checkedOptions(options: SandboxOptions): { host: string; port: number; logLimit: number } {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SandboxConfigError((name) => `${name('port')} must be an integer from 0 to 65535.`, 'port');
  if (options.failureStatus !== undefined && options.failureStatus !== 200 && options.failureStatus !== 400) {
    throw new SandboxConfigError((name) => `${name('failureStatus')} must be 200 or 400.`, 'failureStatus');
  }
  if (typeof options.data !== 'string' || options.data.trim() === '') throw new SandboxConfigError((name) => `${name('data')} must be a file path or :memory:.`, 'data');
  const logLimit = options.logLimit ?? DEFAULT_LOG_LIMIT;
  if (!Number.isSafeInteger(logLimit) || logLimit < 0) throw new SandboxConfigError((name) => `${name('logLimit')} must be a whole number (0 records nothing).`, 'logLimit');
  return { host, port, logLimit };
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const { host, port, logLimit } = checkedOptions(options);
  const clock = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  // Before the store opens: a bad host name or a damaged authority leaves nothing to close.
  const tls = options.tls === undefined ? undefined : await serverCertificate(options.tls, host, clock());

  const store = openStore(options.data);
  let baseUrl = '';
  try {
    const app = seedStore(store, { appName: options.appName, ownerid: options.ownerid, sellerKey: options.sellerKey }, Math.floor(clock() / 1000));
    const identity = loadOrCreateIdentity(store);
    const recorder = new RequestRecorder(store, { limit: logLimit, log, ...options.inspectorTiming });
    const sellers = { ...sellerHandlers, ...options.handlers?.seller };
    const runtime = { failureStatus: options.failureStatus ?? 200, rateLimit: options.rateLimit ?? true, trustProxy: options.trustProxy ?? false } as const;
    const panelUrl = (): string => options.panelUrl ?? baseUrl;
    let site: SiteNames = { scheme: tls ? 'https' : 'http', hostname: tls?.hostname, bindHost: host, port: 0 };
    // One book of faults: the admin route /sandbox/faults and the dashboard's faults view both use it.
    const faultBook = new FaultBook();
    const dashboard = dashboardPages({ clock, log, options: runtime, baseUrl: () => baseUrl, panelUrl, sellerHandlers: sellers, recorder, faultBook, secure: tls !== undefined });
    const sandbox = createSandboxServer({
      store,
      identity,
      clientHandlers: { ...clientHandlers, ...options.handlers?.client },
      sellerHandlers: sellers,
      pages: [...(options.handlers?.pages ?? []), ...clientPages, ...resellerPages, ...panelPages, ...homePages, ...dashboard],
      options: runtime,
      clock,
      log,
      // A line per request only when someone reads the log.
      logRequests: options.log !== undefined,
      baseUrl: () => baseUrl,
      origins: originPolicy(options, () => site),
      ...(options.panelUrl === undefined ? {} : { panelUrl }),
      site: () => site,
      recorder,
      faultBook,
      ...(tls ? { tls: { cert: tls.certPem, key: tls.keyPem } } : {}),
    });
    const lastPort = await listenOn(sandbox.server, host, options.port === undefined && options.reuseLastPort === true ? readLastPort(store) : undefined, port);
    const bound = sandbox.server.address() as AddressInfo;
    recordLastPort(store, bound.port);
    site = { ...site, port: bound.port };
    const scheme = tls ? 'https' : 'http';
    baseUrl = formatBaseUrl(scheme, host, bound.port);
    const exposed = !isLoopbackHost(host);
    const info: SandboxInfo = {
      baseUrl,
      ...(exposed ? { listen: `${scheme}://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}` } : {}),
      ...readyFields(app, identity),
      ...(tls ? { caFile: tls.caFile, hostname: tls.hostname } : {}),
    };
    log(`sandbox listening on ${baseUrl} (store ${store.location})`);
    // Expired panel sign-ins go on a timer, not on a visitor's request; it never keeps the process alive.
    const sweeper = setInterval(() => sweepPanelSignIns(store, domainNow(store, clock())), PANEL_SWEEP_MS);
    sweeper.unref();
    let closing: Promise<void> | undefined;
    return {
      baseUrl,
      exposed,
      info,
      store,
      ...(lastPort ? { lastPort } : {}),
      warnings: tls?.warnings ?? [],
      flushRequestLog: () => recorder.flush(),
      close: () => {
        clearInterval(sweeper);
        // The requests answered while shutting down are recorded too: the last batch is written after.
        closing ??= sandbox.shutdown().finally(() => {
          recorder.close();
          store.close();
        });
        return closing;
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}

/** The app, keys and token of the ready line. */
function readyFields(app: ReturnType<typeof seedStore>, identity: ReturnType<typeof loadOrCreateIdentity>): Pick<SandboxInfo, 'app' | 'sellerKey' | 'publicKey' | 'adminToken'> {
  return {
    app: { name: app.name, ownerid: app.ownerid, secret: app.secret, version: app.ver },
    sellerKey: app.sellerKey,
    publicKey: identity.publicKey,
    adminToken: identity.adminToken,
  };
}

/**
 * Listens on the store's last port when there is one and it is free, else on `port`. A last port
 * another program holds (or one this user may not bind) is no error: a free one is taken instead.
 */
async function listenOn(server: Server, host: string, last: number | undefined, port: number): Promise<LastPort | undefined> {
  if (last === undefined) {
    await listen(server, host, port);
    return undefined;
  }
  try {
    await listen(server, host, last);
    return { port: last, reused: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    // node allows listen() again on a server whose first listen() failed.
    await listen(server, host, 0);
    return { port: last, reused: false };
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Which pages may read answers and which names are answered: its own names (site-names.ts), the panel URL's. */
function originPolicy(options: SandboxOptions, site: () => SiteNames): OriginPolicy {
  const names = options.panelUrl === undefined ? [] : [new URL(options.panelUrl).host];
  return createOriginPolicy({ cors: options.cors ?? [], site, names });
}

/** Whether only this machine can reach an address bound to `host`. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A URL clients can reach: a wildcard host is reached through loopback; IPv6 gets brackets. */
function formatBaseUrl(scheme: 'http' | 'https', host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `${scheme}://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The certificate an HTTPS sandbox serves, signed by the data folder's authority, and what to say about that authority. */
async function serverCertificate(
  tls: NonNullable<SandboxOptions['tls']>,
  host: string,
  now: number,
): Promise<{ certPem: string; keyPem: string; caFile: string; hostname: string; warnings: string[] }> {
  const { checkTlsHostname, certificateNames, DEFAULT_TLS_HOSTNAME } = await import('./tls/names.js');
  const { issueServerCertificate } = await import('./tls/server-certificate.js');
  const { AuthorityError, authorityWarnings, checkNotExpired, loadOrCreateAuthority } = await import('./tls/authority.js');
  let hostname: string;
  try {
    hostname = checkTlsHostname(tls.hostname ?? DEFAULT_TLS_HOSTNAME);
  } catch (error) {
    throw new SandboxConfigError((error as Error).message, 'tls');
  }
  const names = certificateNames(hostname, host);
  try {
    const authority = await loadOrCreateAuthority(tls.dataDir, now, { names, widen: tls.widenAuthority === true });
    checkNotExpired(authority, now);
    const certificate = await issueServerCertificate(authority, names, now);
    return { certPem: certificate.certPem, keyPem: certificate.keyPem, caFile: authority.certFile, hostname, warnings: authorityWarnings(authority, now) };
  } catch (error) {
    if (error instanceof AuthorityError) throw new SandboxConfigError(error.message, 'tls');
    throw error;
  }
}
