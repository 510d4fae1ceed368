/** What the config file holds (docs/contracts.md, "Configuration"). */
import type { StoredSession } from '../api/session.js';

/** The client session a profile keeps between commands: the protocol library's shape. */
export type { StoredSession } from '../api/session.js';

export interface ProfileData {
  baseUrl?: string;
  appName?: string;
  ownerid?: string;
  appVersion?: string;
  sellerKey?: string;
  /** Ed25519 public key (64 hex) that signs the server's 1.3 answers. */
  publicKey?: string;
  /** The application secret (64 hex); lets the CLI check 1.2 HMAC signatures. */
  secret?: string;
  /** Client API version: unset = 1.3, with chat and user variables on 1.2. */
  api?: '1.3' | '1.2';
  /** How every 1.3 call is sent; unset: POST for a call carrying a credential, GET for the rest. */
  method?: 'get' | 'post';
  /**
   * `skip`: client answers are taken without checking their signatures (the profile's
   * `--no-verify`); client commands warn. Unset or `check`: a client call whose answers kactl
   * has no key to check is refused.
   */
  signatures?: 'check' | 'skip';
  /** Seller calls allowed per minute for this key (0 = no pacing). */
  sellerRate?: number;
  /** Largest accepted age of a signed 1.3 answer, in seconds. */
  signatureWindow?: number;
  /** Request timeout in seconds. */
  timeout?: number;
  /** HWID sent by client commands instead of this machine's identifier. */
  hwid?: string;
  /**
   * A certificate authority (PEM file) trusted for HTTPS instead of the system's, for this
   * profile's own base URL only: what `kactl sandbox start --tls` saves for its authority.
   */
  caFile?: string;
  /** Bearer token of a sandbox's admin routes (outbox), saved by `kactl sandbox start`. */
  adminToken?: string;
  session?: StoredSession;
  /**
   * Where kactl 0.1 kept the client's replay check (src/api/verify.ts): the start of the
   * signature of each recent signed answer this profile accepted. Still read (those answers stay
   * refused), never written: the memory is now a file of its own (src/config/answer-memory.ts).
   */
  seenAnswers?: string[];
}

export interface ConfigFile {
  active?: string;
  profiles: Record<string, ProfileData>;
}
