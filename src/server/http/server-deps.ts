/**
 * What the HTTP layer is built from; startSandbox assembles it. server.ts hands each stage and
 * endpoint only its part, as a narrower named type (ClientEndpointDeps, PageEndpointDeps…).
 */
import type { HandlerTable, RuntimeOptions } from '../dispatch/types.js';
import type { FaultBook } from '../faults/book.js';
import type { RequestRecorder } from '../inspector/recorder.js';
import type { SandboxIdentity } from '../store/identity.js';
import type { Store } from '../store/store.js';
import type { OriginPolicy } from './origin-policy.js';
import type { PageRoute } from './pages.js';
import type { SiteNames } from './site-names.js';

export interface ServerDeps {
  readonly store: Store;
  readonly identity: SandboxIdentity;
  readonly clientHandlers: HandlerTable;
  readonly sellerHandlers: HandlerTable;
  readonly pages: readonly PageRoute[];
  readonly options: RuntimeOptions;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  readonly log: (line: string) => void;
  /** Write a log line per request (to `log`); false when nothing reads the log, so no line is made. */
  readonly logRequests?: boolean;
  /** The base URL, known once the server listens. */
  readonly baseUrl: () => string;
  /** Which pages may read the answers (CORS) and which Host names are answered (origin-policy.ts). */
  readonly origins: OriginPolicy;
  /** The customer panel's advertised base URL (`--panel-url`), when it is not the sandbox's own. */
  readonly panelUrl?: () => string;
  /**
   * The names this sandbox answers to: scheme, TLS host name, bound address and port (known once
   * it listens). Links it gives out use the name the client used when it is one of these
   * (site-names.ts); a check of the Host header reads the same.
   */
  readonly site: () => SiteNames;
  /** The request inspector (inspector/recorder.ts): every answered request is recorded in it. */
  readonly recorder: RequestRecorder;
  /** The faults this server injects (in memory: a restart clears them); the dashboard adds and clears the same ones. */
  readonly faultBook: FaultBook;
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  readonly tls?: { readonly cert: string; readonly key: string };
}
