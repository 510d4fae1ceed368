/**
 * Plain web pages the sandbox serves beside the APIs (the magic-link approval page, the
 * password-reset page). The client area lists its pages in src/server/client/pages.ts; each is
 * one PageRoute.
 */
import type { Readable } from 'node:stream';
import type { Params } from '../dispatch/params.js';
import type { RequestInfo } from '../dispatch/types.js';
import type { NewOutboxMessage } from '../domain/outbox.js';
import type { Store } from '../store/store.js';
import type { PageLimits } from './page-limits.js';

export interface PageContext {
  readonly store: Store;
  /** Unix seconds on the domain clock, fixed for the request. */
  readonly now: number;
  readonly ip: string;
  readonly baseUrl: string;
  readonly request: RequestInfo;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly outbox: { send(message: NewOutboxMessage): number };
  /** Values of the path's `:name` segments (`/sandbox/magic/:token` → `{ token }`), decoded. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Attempt limits (page-limits.ts): the panel's sign-in and form posts, the shop hook's signatures. */
  readonly limits: PageLimits;
}

export interface PageReply {
  /** Default 200. */
  readonly status?: number;
  /** Default `text/html; charset=utf-8`. */
  readonly contentType?: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent instead of `body` when given (a panel download): streamed, never held whole. */
  readonly stream?: Readable;
}

export interface PageRoute {
  readonly method: 'GET' | 'POST';
  /**
   * The path, e.g. `/sandbox/outbox-help`; a segment `:name` matches any one non-empty segment
   * and hands it to the page as `pathParams.name`, decoded (`%2F` becomes a `/` in the value).
   * A trailing slash on the request is ignored.
   */
  readonly path: string;
  /** A JSON body is accepted and handed over as `ctx.request.body` (a shop's webhook). */
  readonly acceptsJson?: boolean;
  /**
   * Its requests are not recorded by the request inspector: the dashboard's pages, whose reads
   * would fill the log with the tester's own visits (its forms, which change things, are recorded).
   */
  readonly unrecorded?: boolean;
  /**
   * Parameters whose values are secrets under names the masking rule does not know (the shop
   * hook's `app`, the app secret): the request inspector masks them (inspector/record.ts).
   */
  readonly secretParams?: readonly string[];
  /** Params as the APIs read them: form body first, then query string. */
  readonly handle: (ctx: PageContext, params: Params) => PageReply | Promise<PageReply>;
}

/** A page whose path matched, with the values of its `:name` segments. */
export interface MatchedPage {
  readonly page: PageRoute;
  readonly pathParams: Readonly<Record<string, string>>;
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The routes whose path matches `path` (any method). */
export function matchPages(pages: readonly PageRoute[], path: string): MatchedPage[] {
  const wanted = trimSlash(path).split('/');
  const matched: MatchedPage[] = [];
  for (const page of pages) {
    const pattern = trimSlash(page.path).split('/');
    if (pattern.length !== wanted.length) continue;
    const pathParams: Record<string, string> = {};
    const fits = pattern.every((segment, i) => {
      const actual = wanted[i] ?? '';
      if (!segment.startsWith(':')) return segment === actual;
      const value = decodeSegment(actual);
      if (value === undefined || value === '') return false;
      pathParams[segment.slice(1)] = value;
      return true;
    });
    if (fits) matched.push({ page, pathParams });
  }
  return matched;
}

/**
 * Percent-decoded segment; undefined when the escapes are broken. An encoded `%2F` decodes to a
 * `/` inside the value: the path was split on the literal slashes first, so it stays one
 * segment, and that is how a name with a slash (an app called `Tools/Loader`) reaches its page
 * from the link `customerPanelLink` gives out.
 */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
