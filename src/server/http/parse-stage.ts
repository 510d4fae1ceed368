/**
 * The parse stage: the request's parameters and body, read with the limits of request-input.ts
 * and the body types its route takes (JSON only where a route reads it: the seller API, the
 * admin clock, a page that says `acceptsJson`). Ready at once for a GET (see maybe-async.ts);
 * a refusal is thrown as an InputError.
 */
import type { IncomingMessage } from 'node:http';
import type { MaybePromise } from './maybe-async.js';
import { readRequestInput, type RequestInput } from './request-input.js';
import type { Route } from './routes.js';

export function parseRequest(req: IncomingMessage, route: Route): MaybePromise<RequestInput> {
  return readRequestInput(req, { allowJsonBody: takesJson(route) });
}

function takesJson(route: Route): boolean {
  switch (route.kind) {
    case 'seller':
    case 'clock':
      return true;
    case 'page':
      return route.pages.some((matched) => matched.page.acceptsJson === true);
    default:
      return false;
  }
}
