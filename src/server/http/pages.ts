/**
 * Plain web pages the sandbox serves beside the APIs (the magic-link approval page). The client
 * area lists its pages in src/server/client/pages.ts; each is one PageRoute.
 */
import type { Params } from '../dispatch/params.js';
import type { RequestInfo } from '../dispatch/types.js';
import type { NewOutboxMessage } from '../domain/outbox.js';
import type { Store } from '../store/store.js';

export interface PageContext {
  readonly store: Store;
  /** Unix seconds, fixed for the request. */
  readonly now: number;
  readonly ip: string;
  readonly baseUrl: string;
  readonly request: RequestInfo;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly outbox: { send(message: NewOutboxMessage): number };
}

export interface PageReply {
  /** Default 200. */
  readonly status?: number;
  /** Default `text/html; charset=utf-8`. */
  readonly contentType?: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface PageRoute {
  readonly method: 'GET' | 'POST';
  /** Exact path, e.g. `/magic`; a trailing slash on the request is ignored. */
  readonly path: string;
  /** Params as the APIs read them: form body first, then query string. */
  readonly handle: (ctx: PageContext, params: Params) => PageReply | Promise<PageReply>;
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The routes registered for `path` (any method). */
export function pagesFor(pages: readonly PageRoute[], path: string): PageRoute[] {
  return pages.filter((page) => trimSlash(page.path) === trimSlash(path));
}
