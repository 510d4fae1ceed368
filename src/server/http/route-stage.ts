/**
 * The route stage: which part of the sandbox a request is for, and the refusals that need
 * nothing but the request line and headers: no Host (400), an unknown path (404), a CORS
 * preflight (204), a method the route does not answer (405).
 */
import type { IncomingMessage } from 'node:http';
import { errorFor, plainError, preflight, type ErrorShapeDeps } from './error-shapes.js';
import type { Answer } from './exchange.js';
import { MESSAGES } from './input-error.js';
import type { PageRoute } from './pages.js';
import { allowedMethods, matchRoute, type Route } from './routes.js';

export interface RouteStageDeps extends ErrorShapeDeps {
  readonly pages: readonly PageRoute[];
}

/** The route to serve; or the answer that ends the request here, with the route when the path matched one. */
export type Routed = { readonly route: Route; readonly answer?: undefined } | { readonly route: Route | undefined; readonly answer: Answer };

export function routeRequest(deps: RouteStageDeps, req: IncomingMessage, path: string): Routed {
  const route = matchRoute(path, deps.pages);
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    // HTTP/1.1 requires Host; node's own check (turned off in server.ts) would answer an empty 400.
    return { route, answer: { response: errorFor(deps, route, req, 400, MESSAGES.badRequest), refusedInput: true } };
  }
  if (route === undefined) return { route, answer: { response: plainError(404, MESSAGES.notFound) } };
  if (req.method === 'OPTIONS') return { route, answer: { response: preflight(route) } };
  if (!allowedMethods(route).includes(req.method ?? '')) {
    return { route, answer: { response: errorFor(deps, route, req, 405, MESSAGES.methodNotAllowed, { allow: [...allowedMethods(route), 'OPTIONS'].join(', ') }) } };
  }
  return { route };
}
