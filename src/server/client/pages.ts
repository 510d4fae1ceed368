/**
 * Web pages of the client area (the magic-link approval page goes here). Each entry is a
 * PageRoute: `{ method, path, handle(ctx, params) }`; the HTTP layer serves them as listed.
 */
import type { PageRoute } from '../http/pages.js';

export const clientPages: readonly PageRoute[] = [];
