/**
 * The contract between the HTTP layer and the handlers of the three APIs.
 *
 * A handler is `(ctx, params) => Reply` (or a promise of one). It reads and writes through the
 * domain layer (src/server/domain/) with `ctx.store` and `ctx.now`; it never touches HTTP. The
 * HTTP layer serialises the Reply (field order kept), adds 1.3's `code`/`ownerid` and the nonce,
 * signs it and picks the status.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { NewOutboxMessage } from '../domain/outbox.js';
import type { ApiVersion, AppRow, SessionRow } from '../domain/rows.js';
import type { Store } from '../store/store.js';
import type { Params } from './params.js';

/** Which API a request came in on. The client handlers serve both 1.3 and 1.2. */
export type ApiKind = ApiVersion | 'seller';

export interface Reply {
  /** The `success` field. Decides the status unless `status` is set: 200, else the failure status. */
  readonly success: boolean;
  /**
   * Fields after `success` (and after 1.3's `code`), in wire order; usually `message` first.
   * Values are written as given: counts the protocol sends as strings must be strings here.
   */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Client APIs: append a fresh `nonce` after the fields. Default: `success`. Seller: never. */
  readonly nonce?: boolean;
  /**
   * Send this text as the whole body instead of JSON (the seller API's `format=text` answers,
   * the 1.2 `log` empty body). 1.3 still signs it.
   */
  readonly text?: string;
  /** Explicit HTTP status (rarely needed; prefer the default policy). */
  readonly status?: number;
  /**
   * Seller API failures only: the status the hosted seller API gives this answer (404 unknown
   * seller key, 403 app refused, 406 empty list or not found). Used in the default hosted mode;
   * the spec-strict mode (`failureStatus: 400`) answers 400 whatever this says.
   */
  readonly hostedStatus?: HostedFailureStatus;
  /** 1.2 only: send no `signature` header (the source leaves `Session not found`, `log` unsigned). */
  readonly unsigned?: boolean;
  /** 1.2 only: keep `/` unescaped (the source's `invalidver` answer). */
  readonly unescapedSlashes?: boolean;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Why, in plain words, from the rule that decided (domain/outcome.ts `Because`). Never sent:
   * the request inspector records it.
   */
  readonly reason?: string | undefined;
  /** The end user the answer is about when the request did not name them (recorded, never sent). */
  readonly user?: string | undefined;
}

/** The statuses the hosted seller API uses for a business failure besides 200 (docs/protocol/seller-api.md §1.4). */
export type HostedFailureStatus = 403 | 404 | 406;

/** What a handler can see of the HTTP request. */
export interface RequestInfo {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly rawQuery: string;
  readonly headers: IncomingHttpHeaders;
  /** A non-form body as text (a shop's JSON POST to the seller `add`), else undefined. */
  readonly body: string | undefined;
}

/** The sandbox options handlers may need. */
export interface RuntimeOptions {
  /**
   * Status of a `success:false` answer: 200, the hosted service's habit (the default; seller
   * failures may carry their hosted status instead), or 400 (the spec-strict mode).
   */
  readonly failureStatus: 200 | 400;
  readonly rateLimit: boolean;
  readonly trustProxy: boolean;
}

/** Sends mail to the sandbox outbox (the app and the time are filled in). */
export interface OutboxSender {
  send(message: Omit<NewOutboxMessage, 'appId'>): number;
}

export interface HandlerContext {
  readonly api: ApiKind;
  /** The `type` being served. */
  readonly type: string;
  readonly store: Store;
  /** The app addressed (client: `name` + `ownerid`; seller: the seller key's app). */
  readonly app: AppRow;
  /** Unix seconds, fixed for the whole request. Pass it to every domain function. */
  readonly now: number;
  /** Client IP: the socket's, or the first X-Forwarded-For entry when `trustProxy`. */
  readonly ip: string;
  /** The sandbox's own base URL (`http://127.0.0.1:1234`), for links it hands out. */
  readonly baseUrl: string;
  /** Where the customer panel is advertised (`sandbox start --panel-url`; default baseUrl). */
  readonly panelUrl: string;
  readonly options: RuntimeOptions;
  readonly request: RequestInfo;
  /** Aborted when the client goes away or the sandbox closes: pass it to outbound requests. */
  readonly signal: AbortSignal;
  readonly outbox: OutboxSender;
  /** Diagnostics to the sandbox's log function. Never log secrets. */
  readonly log: (line: string) => void;
  /**
   * The session this request runs in, once known: set by the session guards and by `init`.
   * The HTTP layer uses it to pick the 1.2 HMAC key.
   */
  session: SessionRow | undefined;
}

export type Handler = (ctx: HandlerContext, params: Params) => Reply | Promise<Reply>;

/** `type` → handler. One table per area file, merged in client/index.ts and seller/index.ts. */
export type HandlerTable = Readonly<Record<string, Handler>>;
