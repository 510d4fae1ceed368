/**
 * Web pages of the client area. Each entry is a PageRoute: `{ method, path, handle(ctx, params) }`;
 * the HTTP layer serves them as listed (`:name` path segments reach the page as `ctx.pathParams`).
 *
 *   GET|POST /sandbox/magic/<token>    magic-link approval (magic-link-page.ts)
 *   GET|POST /sandbox/reset/<secret>   password reset (reset-page.ts)
 */
import type { PageRoute } from '../http/pages.js';
import { magicLinkPages } from './magic-link-page.js';
import { resetPages } from './reset-page.js';

export const clientPages: readonly PageRoute[] = [...magicLinkPages, ...resetPages];
