/** What the HTTP layer is built from (see server.ts); startSandbox assembles it. */
import type { HandlerTable, RuntimeOptions } from '../dispatch/types.js';
import type { SandboxIdentity } from '../store/identity.js';
import type { Store } from '../store/store.js';
import type { PageLimits } from './page-limits.js';
import type { PageRoute } from './pages.js';
import type { FixedWindowLimiter } from './rate-limiter.js';

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
  /** The base URL, known once the server listens. */
  readonly baseUrl: () => string;
  /** Send `Access-Control-Allow-Origin: *` on every answer. */
  readonly cors: boolean;
  /** The customer panel's advertised base URL, when it is not the sandbox's own. */
  readonly panelUrl?: () => string;
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

/** The rate limiters of one server (client: per client IP and application; seller: per seller key; pages). */
export interface Limiters {
  readonly client: FixedWindowLimiter;
  readonly seller: FixedWindowLimiter;
  /** Wrong seller keys per client IP. */
  readonly sellerKeyFailures: FixedWindowLimiter;
  /** The web pages' limits (page-limits.ts). */
  readonly pages: PageLimits;
}
