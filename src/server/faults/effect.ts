/**
 * What a fault is made with and what it makes (transform.ts and each kind's own file): types
 * only, in a file of their own so the kinds' files and transform.ts, which calls them, do not
 * import each other.
 */
import type { KeyObject } from 'node:crypto';
import type { EncodedResponse } from '../http/encoded-response.js';
import type { RememberedAnswer } from './last-answers.js';
import type { RequestFacts } from './made-up-success.js';

export interface FaultMaterial {
  readonly api: '1.3' | '1.2' | 'seller' | 'page';
  /** Signs stale answers again: the sandbox's own key, so only the age is wrong. */
  readonly privateKey: KeyObject;
  /** Another Ed25519 key, for forged 1.3 signatures that look like any other. */
  readonly forgeKey: KeyObject;
  /** Real time, ms since the epoch. */
  readonly nowMs: number;
  /** The previous signed answer to this client (replay). */
  readonly previous: RememberedAnswer | undefined;
  /** The last signed answer of this request's type to this client (replay-type). */
  readonly previousOfType: RememberedAnswer | undefined;
  /** The request, for the answers a fake server makes up (made-up-success.ts). */
  readonly request: RequestFacts;
  /**
   * 1.2: the HMAC key the server signs this answer with (the app secret for init, else
   * `enckey-secret`); null when the session has no enckey; undefined when the app or session is unknown.
   */
  readonly appHmacKey: () => string | null | undefined;
  /** The sandbox's rate-limit answer for this route, as it sends it when the limit is reached. */
  readonly rateLimited: () => EncodedResponse;
}

export interface FaultEffect {
  readonly response: EncodedResponse;
  /** `reset`: the socket is destroyed before any byte; `truncate`: cut after part of the body. */
  readonly socket?: 'reset' | 'truncate';
  readonly delayMs?: number;
}
