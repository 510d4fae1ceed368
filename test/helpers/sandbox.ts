/**
 * In-process sandbox for tests: `startTestSandbox()` starts one through the library's
 * startSandbox (kactl/sandbox: 127.0.0.1, port 0, a `:memory:` store, rate limits off unless
 * asked for), closes it after the test file, and adds what kactl's own tests need beside the
 * public API: the store, server options the library does not offer (extra handlers, a trusted
 * proxy), and raw HTTP helpers that return status, headers and exact bytes:
 *
 *   const sb = await startTestSandbox();
 *   const sid = await sb.init();                                  // 1.3 init → sessionid
 *   const res = await sb.client('check', { sessionid: sid });     // name + ownerid added
 *   expect(res.json.success).toBe(true);
 *   expect(sb.verify13(res)).toBe(true);                          // Ed25519 with the published key
 *   await sb.seller('fetchallkeys');                              // sellerkey added
 *   await sb.advance(16 * 60);                                    // POST /sandbox/clock advance=960
 *
 * `startTestSandbox({ tls: { dataDir } })` serves HTTPS; the helpers then trust only its authority.
 *
 * For handler-level tests without HTTP, `openTestStore()` gives a seeded in-memory store.
 */
import { verify } from 'node:crypto';
import fs from 'node:fs';
import { Agent as UndiciAgent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { cleanUpAfterEachFile } from './cleanup.js';
import type { SandboxInfo, SandboxOptions } from '../../src/server/start.js';
import { sandboxInternals, startSandboxWith } from '../../src/sandbox/run.js';
import { changeSandboxClock, getSandboxClock } from '../../src/api/sandbox-admin.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openStore, type Store } from '../../src/server/store/store.js';
import { seedStore } from '../../src/server/store/seed.js';
import { createSession } from '../../src/server/domain/sessions.js';
import { findAppBySellerKey } from '../../src/server/domain/apps.js';
import type { ApiVersion, AppRow, SessionRow } from '../../src/server/domain/rows.js';
import type { OutboxMessage } from '../../src/server/domain/outbox.js';
import type { LoggedRequest } from '../../src/api/sandbox-admin.js';
import { ed25519PublicKey } from '../../src/api/verify.js';

export type { SandboxInfo };

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  /** The exact body bytes (what signatures cover). */
  readonly bytes: Buffer;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON (`KeyAuth_Invalid`). Read loosely in tests. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers of many shapes; `unknown` would need a cast at every field
  readonly json: any;
}

export type ParamValues = Readonly<Record<string, string | undefined>>;

/** One record of GET /sandbox/requests (src/server/http/requests-endpoint.ts). */
export type RecordedRequest = LoggedRequest;

export interface CallOptions {
  /** Client API version (default 1.3). */
  readonly api?: ApiVersion;
  /** GET with a query string (default) or POST with a form body. */
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
}

export interface TestSandbox {
  readonly baseUrl: string;
  readonly info: SandboxInfo;
  /** The sandbox's own store (same process): arrange data with the domain functions. */
  readonly store: Store;
  /** The seeded app as stored now. */
  app(): AppRow;
  /** Client API call; adds `type`, `name` and `ownerid` (pass `undefined` to leave one out). */
  client(type: string | undefined, params?: ParamValues, options?: CallOptions): Promise<HttpResult>;
  /** `init` that must succeed; returns the session id. */
  init(params?: ParamValues, options?: CallOptions): Promise<string>;
  /** Seller API call (GET); adds `sellerkey` and `type`. */
  seller(type: string | undefined, params?: ParamValues): Promise<HttpResult>;
  /** The outbox through the library (GET /sandbox/outbox with the admin token). */
  outbox(query?: { after?: string; to?: string; kind?: string }): Promise<OutboxMessage[]>;
  /** GET /sandbox/requests with the admin token, as sent: the request inspector's records (filters in `query`). */
  requests(query?: ParamValues): Promise<{ limit: number; requests: RecordedRequest[] }>;
  /** The domain clock through the library (GET /sandbox/clock): Unix seconds and the offset. */
  clock(): Promise<{ now: number; offset: number }>;
  /** Moves the domain clock through the library (POST /sandbox/clock `advance=<seconds>`). */
  advance(seconds: number): Promise<{ now: number; offset: number }>;
  /** The library's sandbox under the helpers. */
  readonly library: Sandbox;
  /** A page of the sandbox: GET, or POST with `form` as a form body (what a browser sends). */
  page(path: string, form?: ParamValues): Promise<HttpResult>;
  /** Any request to the sandbox (path with query). */
  request(pathAndQuery: string, init?: RequestInit): Promise<HttpResult>;
  /** Whether a 1.3 answer carries a valid Ed25519 signature under the published public key. */
  verify13(res: HttpResult): boolean;
  close(): Promise<void>;
}

/** The server options a test sandbox takes (each passed on below: one left out would be dropped unseen). */
export type TestSandboxOptions = Partial<
  Pick<SandboxOptions, 'now' | 'log' | 'tls' | 'handlers' | 'cors' | 'trustProxy' | 'panelUrl' | 'inspectorTiming' | 'rateLimit' | 'failureStatus' | 'data' | 'host' | 'port' | 'logLimit' | 'appName' | 'ownerid' | 'sellerKey'>
>;

/** A clock tests can move: `now()` in ms, `advance(seconds)`. Starts at 2026-01-01T00:00:00Z. */
export function fakeClock(startMs = Date.UTC(2026, 0, 1)): { now: () => number; advance: (seconds: number) => void; seconds: () => number } {
  let current = startMs;
  return {
    now: () => current,
    advance: (seconds) => {
      current += seconds * 1000;
    },
    seconds: () => Math.floor(current / 1000),
  };
}

function query(params: ParamValues): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, value);
  return search.toString();
}

export async function toResult(res: Response): Promise<HttpResult> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, text, json };
}

/** Ed25519 check over timestamp ‖ body with the raw 32-byte public key (hex), as the CLI imports it. */
export function verifyEd25519(publicKeyHex: string, timestamp: string, body: Buffer, signatureHex: string): boolean {
  return verify(null, Buffer.concat([Buffer.from(timestamp, 'ascii'), body]), ed25519PublicKey(publicKeyHex), Buffer.from(signatureHex, 'hex'));
}

export { hmacSha256Hex as hmacHex } from '../../src/api/verify.js';

const open: TestSandbox[] = [];
// startTestSandbox() is usually called from inside a hook, where vitest would ignore a hook added
// then: the closing is registered once, with the cleanups run after every file.
cleanUpAfterEachFile(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { now, log, tls, handlers, cors, trustProxy, panelUrl, inspectorTiming, rateLimit, failureStatus, data, host, port, logLimit, appName, ownerid, sellerKey } = options;
  const library = await startSandboxWith(
    {
      rateLimit: rateLimit ?? false,
      ...(now === undefined ? {} : { clock: now }),
      ...(log === undefined ? {} : { logger: { info: log, warn: log } }),
      ...(tls === undefined ? {} : { tls: { dataDir: tls.dataDir, ...(tls.hostname === undefined ? {} : { hostname: tls.hostname }) } }),
      ...(failureStatus === undefined ? {} : { failureStatus }),
      ...(data === undefined ? {} : { data }),
      ...(host === undefined ? {} : { host }),
      ...(port === undefined ? {} : { port }),
      ...(logLimit === undefined ? {} : { logLimit }),
      ...(appName === undefined ? {} : { appName }),
      ...(ownerid === undefined ? {} : { ownerid }),
      ...(sellerKey === undefined ? {} : { sellerKey }),
    },
    { ...(handlers === undefined ? {} : { handlers }), ...(cors === undefined ? {} : { cors }), ...(trustProxy === undefined ? {} : { trustProxy }), ...(panelUrl === undefined ? {} : { panelUrl }), ...(inspectorTiming === undefined ? {} : { inspectorTiming }) },
  );
  const { info, store, admin } = sandboxInternals(library);
  const running = { store, close: () => library.close() };

  // An HTTPS sandbox (`tls` option) is reached trusting only its own authority, as its profile does.
  const trusting = info.caFile === undefined ? undefined : new UndiciAgent({ connect: { ca: fs.readFileSync(info.caFile, 'utf8') } });
  const request = async (pathAndQuery: string, init?: RequestInit): Promise<HttpResult> =>
    trusting === undefined
      ? toResult(await fetch(`${info.baseUrl}${pathAndQuery}`, init))
      : toResult(await undiciFetch(`${info.baseUrl}${pathAndQuery}`, { ...(init as UndiciRequestInit), dispatcher: trusting }));

  const client: TestSandbox['client'] = (type, params = {}, opts = {}) => {
    const all = { type, name: info.app.name, ownerid: info.app.ownerid, ...params };
    const path = `/api/${opts.api ?? '1.3'}/`;
    if (opts.method === 'POST') {
      return request(path, { method: 'POST', body: query(all), headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers } });
    }
    return request(`${path}?${query(all)}`, { headers: { ...opts.headers } });
  };

  let closed = false;
  const sandbox: TestSandbox = {
    baseUrl: info.baseUrl,
    info,
    store: running.store,
    app: () => {
      const app = findAppBySellerKey(running.store, info.sellerKey);
      if (app === undefined) throw new Error('The seeded app is gone');
      return app;
    },
    client,
    async init(params = {}, opts = {}) {
      const res = await client('init', { ver: info.app.version, ...params }, opts);
      if (res.json?.success !== true) throw new Error(`init failed (${res.status}): ${res.text}`);
      return res.json.sessionid as string;
    },
    seller: (type, params = {}) => request(`/api/seller/?${query({ sellerkey: info.sellerKey, type, ...params })}`),
    async outbox(filter = {}) {
      return (await library.outbox.list({ ...filter, after: filter.after === undefined ? undefined : Number(filter.after) }));
    },
    // The route itself, raw: the server's tests check its answer, not the library's reading of it.
    async requests(params = {}) {
      const res = await request(`/sandbox/requests?${query(params)}`, { headers: { authorization: `Bearer ${info.adminToken}` } });
      if (res.status !== 200) throw new Error(`requests answered ${res.status}: ${res.text}`);
      return res.json as { limit: number; requests: RecordedRequest[] };
    },
    clock: () => getSandboxClock(admin),
    advance: (seconds) => changeSandboxClock(admin, { advance: seconds }),
    library,
    page(path, form) {
      if (form === undefined) return request(path);
      return request(path, { method: 'POST', body: query(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    },
    request,
    verify13(res) {
      const timestamp = res.headers.get('x-signature-timestamp');
      const signature = res.headers.get('x-signature-ed25519');
      if (timestamp === null || signature === null) return false;
      return verifyEd25519(info.publicKey, timestamp, res.bytes, signature);
    },
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
      await trusting?.close();
    },
  };
  open.push(sandbox);
  return sandbox;
}

export interface TestStore {
  readonly store: Store;
  readonly app: AppRow;
  /** A fresh, unvalidated 1.3 session of the app from `ip`. */
  session(now: number, ip?: string): SessionRow;
}

/** A seeded `:memory:` store for handler-level tests (no HTTP). Close it with `store.close()`. */
export function openTestStore(now: number = Math.floor(Date.now() / 1000)): TestStore {
  const store = openStore(':memory:');
  const app = seedStore(store, {}, now);
  return {
    store,
    app,
    session: (at, ip = '127.0.0.1') => createSession(store, app, { ip, api: '1.3' }, at),
  };
}
