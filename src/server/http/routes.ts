/** Which part of the sandbox a path belongs to. API paths match with or without a trailing slash. */
import type { ApiVersion } from '../domain/rows.js';
import { matchPages, type MatchedPage, type PageRoute } from './pages.js';

export type Route =
  | { readonly kind: 'client'; readonly version: ApiVersion }
  | { readonly kind: 'seller' }
  | { readonly kind: 'outbox' }
  | { readonly kind: 'clock' }
  | { readonly kind: 'requests' }
  | { readonly kind: 'faults' }
  | { readonly kind: 'uiCode' }
  | { readonly kind: 'page'; readonly pages: readonly MatchedPage[] };

/** The routes at a fixed path (test/server/admin-routes.test.ts reads the admin ones). */
export const FIXED: Readonly<Record<string, Route>> = {
  '/api/1.3': { kind: 'client', version: '1.3' },
  '/api/1.2': { kind: 'client', version: '1.2' },
  '/api/seller': { kind: 'seller' },
  '/sandbox/outbox': { kind: 'outbox' },
  '/sandbox/clock': { kind: 'clock' },
  '/sandbox/requests': { kind: 'requests' },
  '/sandbox/faults': { kind: 'faults' },
  '/sandbox/ui-code': { kind: 'uiCode' },
};

export function matchRoute(path: string, pages: readonly PageRoute[]): Route | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (Object.hasOwn(FIXED, trimmed)) return FIXED[trimmed];
  const matched = matchPages(pages, path);
  return matched.length > 0 ? { kind: 'page', pages: matched } : undefined;
}

/** Methods a route answers (OPTIONS is answered for every route). */
export function allowedMethods(route: Route): string[] {
  switch (route.kind) {
    case 'client':
    case 'seller':
    case 'clock':
    case 'faults':
      return ['GET', 'POST'];
    case 'outbox':
    case 'requests':
      return ['GET'];
    case 'uiCode':
      return ['POST'];
    case 'page':
      return [...new Set(route.pages.map((matched) => matched.page.method))];
  }
}
