/**
 * The types of `kactl/sandbox`: what startSandbox takes and what it hands back. In a file of
 * their own, which start.ts (the entry) and run.ts (how it runs) both import: neither imports
 * the other's types back.
 */
import type { FaultRequest, SandboxFault } from '../api/sandbox-faults.js';
import type { ClientOptions, KactlClient } from '../api/kactl-client.js';
import type { KactlSeller, SellerOptions } from '../api/kactl-seller.js';
import type { Logger } from '../api/logger.js';
import type { LoggedRequest, OutboxFilter, OutboxMessage, RequestLogFilter } from '../api/sandbox-admin.js';
import type { SandboxState } from './seed.js';

export interface StartSandboxOptions {
  /** A state file (YAML or JSON) or a state object applied before the sandbox is handed back. */
  readonly seed?: string | SandboxState;
  /** Where a seed file's `!env NAME` values are read (e.g. `process.env`); default: none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The store: `:memory:` (the default) or a file path, kept across starts. */
  readonly data?: string;
  /** The interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number;
  /**
   * Serve HTTPS, with a certificate from a certificate authority kept in `dataDir` (made there
   * on first use; default: a temporary folder removed at close). Clients from `client()` and
   * `seller()` trust it; others need `caFile`. `hostname` is a host name or an IP address. An
   * authority in `dataDir` signs only for loopback, `.test`, `.localhost` and the names chosen
   * for it: another `hostname` (or `host`) is refused unless `widenAuthority`, which replaces it
   * with one that may also sign for that name (programs trusting the old one must trust the new).
   */
  readonly tls?: boolean | { readonly dataDir?: string; readonly hostname?: string; readonly widenAuthority?: boolean };
  /** HTTP status of `success:false` answers: 200 as the hosted service (default), or 400. */
  readonly failureStatus?: 200 | 400;
  /** Enforce the hosted rate limits (200 client calls a minute per app, 120 seller calls per key). Default false. */
  readonly rateLimit?: boolean;
  /** The sandbox's time source in ms since the epoch (default Date.now); its clients check signatures against it too. */
  readonly clock?: () => number;
  /** Requests the request log keeps, the newest (`logs()`); default 10,000; 0 records nothing. */
  readonly logLimit?: number;
  /** The server's lines (one a request) go to `info`; default: nothing is written anywhere. */
  readonly logger?: Logger;
  /** Fix the seeded application's name, owner id (10 letters or digits) or seller key (32). */
  readonly appName?: string;
  readonly ownerid?: string;
  readonly sellerKey?: string;
}

/** Options of `client()`: the sandbox fills in its app, keys and address; any of them but the address may be replaced (a wrong key, to test a refusal). */
export type SandboxClientOptions = Partial<Omit<ClientOptions, 'baseUrl'>>;

/** Options of `seller()`: the sandbox fills in its seller key and address; the key may be replaced. */
export type SandboxSellerOptions = Partial<Omit<SellerOptions, 'baseUrl'>>;

/** The mail the sandbox would have sent. */
export interface SandboxOutbox {
  /** Messages, oldest first: all, or those after an id, to an address, of a kind. */
  list(filter?: OutboxFilter): Promise<OutboxMessage[]>;
  /** The newest message that matches, if any. */
  last(filter?: OutboxFilter): Promise<OutboxMessage | undefined>;
}

/**
 * Wrong answers on purpose (src/server/README.md, "Faults"): forged, stale, replayed or tampered
 * signatures, another status, an HTML page, a delay, a reset… to prove a program refuses or
 * survives them. In the sandbox's memory; `reset()` and `restore()` leave them as they are.
 */
export interface SandboxFaults {
  /** Adds one (`{ kind: 'forge-signature', type: 'login' }`); a wrong one is a UsageError with the sandbox's sentence. */
  add(fault: FaultRequest): Promise<SandboxFault>;
  /** The faults held, with how many answers each changed. */
  list(): Promise<SandboxFault[]>;
  /** Removes one by id, or all; resolves with how many went. */
  clear(id?: number): Promise<number>;
}

/** The sandbox's domain clock: sessions, subscriptions, links and codes expire by it. Signatures and TOTP codes stay on real time. */
export interface SandboxClock {
  /** The domain clock now. */
  now(): Promise<Date>;
  /** Seconds the domain clock runs ahead of real time (negative: behind). */
  offset(): Promise<number>;
  /** Moves it by seconds, or a text like `16m`, `31d`, `-1d`; resolves with the new time. */
  advance(step: number | string): Promise<Date>;
  /** Sets it to a moment. */
  set(time: Date | number): Promise<Date>;
  /** Back to real time. */
  reset(): Promise<Date>;
}

/** A copy of a sandbox's whole store, to `restore()` into the same sandbox later. */
export interface SandboxSnapshot {
  /** The store as an SQLite database image (a valid database file). */
  readonly bytes: Uint8Array;
  /** When it was taken (real time). */
  readonly takenAt: Date;
  /** The sandbox it belongs to (its public key). */
  readonly publicKey: string;
}

/** A running sandbox. Close it when done (or `await using`). */
export interface Sandbox {
  /** E.g. `http://127.0.0.1:38881`. */
  readonly baseUrl: string;
  /** The seeded application. */
  readonly app: { readonly name: string; readonly ownerid: string; readonly secret: string; readonly version: string };
  readonly sellerKey: string;
  /** The Ed25519 public key (64 hex) that signs every 1.3 answer. */
  readonly publicKey: string;
  /** Opens the admin routes (`/sandbox/outbox`, `/sandbox/clock`, `/sandbox/requests`). */
  readonly adminToken: string;
  /** HTTPS only: the certificate authority's PEM file. */
  readonly caFile: string | undefined;
  /** A typed client of the seeded app, with the public key and secret set: every answer's signature is checked. */
  client(options?: SandboxClientOptions): KactlClient;
  /** A typed seller client for the seeded app's key (unpaced unless the sandbox enforces rate limits). */
  seller(options?: SandboxSellerOptions): KactlSeller;
  readonly outbox: SandboxOutbox;
  readonly faults: SandboxFaults;
  readonly clock: SandboxClock;
  /** Moves the domain clock (as `clock.advance`). */
  advance(step: number | string): Promise<Date>;
  /**
   * The requests this sandbox served (the seed's included), oldest first, with why each was
   * refused: the newest 100 that match, or as `filter` says. What `kactl sandbox logs` shows:
   * each as the client saw it, a fault's answer included (`fault`, `faultId`, `faultKind`,
   * `delivery`), and `failed` for a refusal (never an empty list, nor kactl's own checks).
   */
  logs(filter?: RequestLogFilter): Promise<LoggedRequest[]>;
  /** Back to the state right after the seed (or the start): data, clock, outbox, request log. */
  reset(): Promise<void>;
  /** A copy of the store now. */
  snapshot(): Promise<SandboxSnapshot>;
  /** Puts a snapshot of this sandbox back. */
  restore(snapshot: SandboxSnapshot): Promise<void>;
  /** Stops the server, closes the store and every client made here. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
