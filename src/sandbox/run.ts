/**
 * How startSandbox (start.ts) runs: the server, the seed, the clients, snapshots and close. Apart
 * from start.ts so that kactl's own tests can pass server options the library does not offer and
 * reach the store (sandboxInternals), without either appearing in kactl/sandbox's declarations.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { createClient } from '../api/kactl-client.js';
import { createSeller } from '../api/kactl-seller.js';
import { logLine } from '../api/logger.js';
import { changeSandboxClock, getSandboxClock, listSandboxOutbox, listSandboxRequests, type AdminTarget } from '../api/sandbox-admin.js';
import { addSandboxFault, clearSandboxFaults, listSandboxFaults } from '../api/sandbox-faults.js';
import { SellerApi } from '../api/seller-api.js';
import { Transport } from '../api/transport.js';
import { startSandbox as startServer, type RunningSandbox, type SandboxInfo, type SandboxOptions } from '../server/start.js';
import type { Store } from '../server/store/store.js';
import { clockStepSeconds } from './duration.js';
import { applySeed, readSeed } from './seed.js';
import { restoreSnapshot, takeSnapshot } from './snapshot.js';
import type { Sandbox, SandboxClock, SandboxFaults, StartSandboxOptions } from './types.js';

/** What kactl's own tests reach behind the public surface: the store and the full ready line. */
export interface SandboxInternals {
  readonly store: Store;
  readonly info: SandboxInfo;
  /** Its admin routes, as the library's outbox and clock call them. */
  readonly admin: AdminTarget;
}

const internals = new WeakMap<Sandbox, SandboxInternals>();

/** The store and ready line of a sandbox this module started (kactl's tests; not exported by kactl/sandbox). */
export function sandboxInternals(sandbox: Sandbox): SandboxInternals {
  const found = internals.get(sandbox);
  if (found === undefined) throw new Error('Not a sandbox startSandbox made.');
  return found;
}

/** Server options the library does not offer (extra handlers, a trusted proxy, the request log's timing): kactl's own tests. */
export type ServerExtras = Partial<Pick<SandboxOptions, 'handlers' | 'cors' | 'trustProxy' | 'panelUrl' | 'inspectorTiming'>>;

/** startSandbox with server options beyond the public ones; not exported by kactl/sandbox. */
export async function startSandboxWith(options: StartSandboxOptions, extras: ServerExtras): Promise<Sandbox> {
  const tlsFolder = options.tls === undefined || options.tls === false ? undefined : tlsDataDir(options.tls);
  let server: RunningSandbox;
  try {
    server = await startServer(serverOptions(options, extras, tlsFolder?.path));
  } catch (error) {
    tlsFolder?.remove();
    throw error;
  }
  const { info, store } = server;
  const ca = info.caFile === undefined ? undefined : fs.readFileSync(info.caFile, 'utf8');
  const admin: AdminTarget = { baseUrl: info.baseUrl, adminToken: info.adminToken, transport: new Transport(ca === undefined ? {} : { ca }) };
  const opened = new Set<{ close(): Promise<void> }>();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await Promise.allSettled([...opened].map((client) => client.close()));
      await admin.transport.close();
      await server.close();
      tlsFolder?.remove();
    })());
  const track = <T extends { close(): Promise<void> }>(client: T): T => {
    if (closing !== undefined) throw new UsageError('This sandbox is closed.');
    opened.add(client);
    return client;
  };

  try {
    if (options.seed !== undefined) await seedFresh(options, options.seed, info, ca);
  } catch (error) {
    await close();
    throw error;
  }
  // The request log is in the store: what is still buffered is written first, so a snapshot
  // holds every request made before it and a restore is not followed by older requests' records.
  const snapshotNow = (): Buffer => {
    server.flushRequestLog();
    return takeSnapshot(store);
  };
  const putBack = (image: Uint8Array): void => {
    server.flushRequestLog();
    restoreSnapshot(store, image);
  };
  const seeded = snapshotNow();
  const clock = adminClock(admin);
  const clients = clientMakers(options, info, ca);

  const sandbox: Sandbox = {
    baseUrl: info.baseUrl,
    app: info.app,
    sellerKey: info.sellerKey,
    publicKey: info.publicKey,
    adminToken: info.adminToken,
    caFile: info.caFile,
    client: (clientOptions) => track(clients.client(clientOptions)),
    seller: (sellerOptions) => track(clients.seller(sellerOptions)),
    outbox: {
      list: (filter) => listSandboxOutbox(admin, filter),
      last: async (filter) => (await listSandboxOutbox(admin, filter)).at(-1),
    },
    faults: adminFaults(admin),
    clock,
    advance: (step) => clock.advance(step),
    logs: async (filter) => (await listSandboxRequests(admin, filter)).requests,
    reset: async () => putBack(seeded),
    snapshot: async () => ({ bytes: snapshotNow(), takenAt: new Date(), publicKey: info.publicKey }),
    restore: async (snapshot) => {
      if (snapshot?.publicKey !== info.publicKey || !(snapshot.bytes instanceof Uint8Array)) {
        throw new UsageError('That snapshot was not taken of this sandbox: a snapshot goes back only into the sandbox that took it.');
      }
      putBack(snapshot.bytes);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  internals.set(sandbox, { store, info, admin });
  return sandbox;
}

/** The server's options from the library's (only those given, so the server's defaults hold), plus kactl's test extras. */
function serverOptions(options: StartSandboxOptions, extras: ServerExtras, tlsFolder: string | undefined): SandboxOptions {
  return {
    data: options.data ?? ':memory:',
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    rateLimit: options.rateLimit ?? false,
    ...(options.failureStatus === undefined ? {} : { failureStatus: options.failureStatus }),
    ...(options.clock === undefined ? {} : { now: options.clock }),
    ...(options.logLimit === undefined ? {} : { logLimit: options.logLimit }),
    ...(options.appName === undefined ? {} : { appName: options.appName }),
    ...(options.ownerid === undefined ? {} : { ownerid: options.ownerid }),
    ...(options.sellerKey === undefined ? {} : { sellerKey: options.sellerKey }),
    ...(options.logger === undefined ? {} : { log: logLine(options.logger, 'info') }),
    ...(tlsFolder === undefined ? {} : { tls: tlsOptions(options.tls, tlsFolder) }),
    ...extras,
  };
}

/**
 * The server's TLS options. An authority in a temporary folder (no `dataDir`) is trusted by
 * nothing but this sandbox's own clients and goes at close: it may sign for whatever name was
 * chosen. One in a folder of the caller's widens only when told to (`widenAuthority`).
 */
function tlsOptions(tls: StartSandboxOptions['tls'], dataDir: string): NonNullable<SandboxOptions['tls']> {
  const given = typeof tls === 'object' ? tls : {};
  return { dataDir, hostname: given.hostname, widenAuthority: given.dataDir === undefined || given.widenAuthority === true };
}

/** Applies the seed to the fresh sandbox through its own seller API, as `kactl apply` would. */
async function seedFresh(options: StartSandboxOptions, seed: NonNullable<StartSandboxOptions['seed']>, info: SandboxInfo, ca: string | undefined): Promise<void> {
  const state = readSeed(seed, options.env ?? {});
  const transport = new Transport(ca === undefined ? {} : { ca });
  const api = new SellerApi({ baseUrl: info.baseUrl, sellerKey: info.sellerKey, ratePerMinute: 0, transport, warn: logLine(options.logger, 'warn') });
  try {
    // A fresh sandbox's domain clock is its time source (no offset yet).
    const now = options.clock ?? Date.now;
    await applySeed(api, state, typeof seed === 'string' ? seed : 'the seed object', () => Math.floor(now() / 1000));
  } finally {
    await transport.close();
  }
}

/** The sandbox's domain clock, read and moved through its admin route (as `kactl sandbox advance`). */
function adminClock(admin: AdminTarget): SandboxClock {
  return {
    now: async () => new Date((await getSandboxClock(admin)).now * 1000),
    offset: async () => (await getSandboxClock(admin)).offset,
    advance: async (step) => new Date((await changeSandboxClock(admin, { advance: clockStepSeconds(step) })).now * 1000),
    set: async (time) => {
      const target = Math.floor((typeof time === 'number' ? time : time.getTime()) / 1000);
      const current = await getSandboxClock(admin);
      const realNow = current.now - current.offset;
      return new Date((await changeSandboxClock(admin, { offset: target - realNow })).now * 1000);
    },
    reset: async () => new Date((await changeSandboxClock(admin, { offset: 0 })).now * 1000),
  };
}

/** The sandbox's faults through its admin route (as `kactl sandbox fault`). */
function adminFaults(admin: AdminTarget): SandboxFaults {
  return {
    add: (fault) => addSandboxFault(admin, fault),
    list: () => listSandboxFaults(admin),
    clear: async (id) => (await clearSandboxFaults(admin, id)).cleared,
  };
}

/** Typed clients of this sandbox, set up for it (its key, secret, authority, clock, logger); the caller's options win. */
function clientMakers(options: StartSandboxOptions, info: SandboxInfo, ca: string | undefined): Pick<Sandbox, 'client' | 'seller'> {
  return {
    client: (clientOptions = {}) =>
      createClient({
        baseUrl: info.baseUrl,
        appName: info.app.name,
        ownerid: info.app.ownerid,
        appVersion: info.app.version,
        publicKey: info.publicKey,
        secret: info.app.secret,
        ...(ca === undefined ? {} : { ca }),
        ...(options.clock === undefined ? {} : { now: options.clock }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...clientOptions,
      }),
    seller: (sellerOptions = {}) =>
      createSeller({
        baseUrl: info.baseUrl,
        sellerKey: info.sellerKey,
        // Pacing guards against the server's limit: none unless this sandbox enforces one.
        ratePerMinute: options.rateLimit === true ? 120 : 0,
        ...(ca === undefined ? {} : { ca }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...sellerOptions,
      }),
  };
}

/** The folder a TLS sandbox keeps its certificate authority in, and whether close removes it. */
function tlsDataDir(tls: true | { readonly dataDir?: string }): { path: string; remove(): void } {
  const given = tls === true ? undefined : tls.dataDir;
  if (given !== undefined) return { path: given, remove: () => undefined };
  const made = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-sandbox-tls-'));
  return { path: made, remove: () => fs.rmSync(made, { recursive: true, force: true }) };
}
