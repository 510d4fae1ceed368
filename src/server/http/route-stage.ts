/**
 * The route stage: which part of the sandbox a request is for, and the refusals that need
 * nothing but the request line and headers: no Host (400), an unknown path (404), a CORS
 * preflight (204), a method the route does not answer (405).
 */
import type { IncomingMessage } from 'node:http';
import { errorFor, plainError, preflight, type ErrorShapeDeps } from './error-shapes.js';
import type { Answer, Decision } from './exchange.js';
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
    const response = errorFor(deps, route, req, 400, MESSAGES.badRequest);
    return { route, answer: { response, refusedInput: true, decision: refused(MESSAGES.badRequest, 'an HTTP/1.1 request without a Host header') } };
  }
  if (route === undefined) return { route, answer: { response: plainError(404, MESSAGES.notFound), decision: refused(MESSAGES.notFound, 'the sandbox serves nothing at this path') } };
  if (req.method === 'OPTIONS') return { route, answer: { response: preflight(route), decision: () => ({ success: true, reason: 'a CORS preflight' }) } };
  const allowed = allowedMethods(route);
  if (!allowed.includes(req.method ?? '')) {
    const response = errorFor(deps, route, req, 405, MESSAGES.methodNotAllowed, { allow: [...allowed, 'OPTIONS'].join(', ') });
    return { route, answer: { response, decision: refused(MESSAGES.methodNotAllowed, `this path answers ${allowed.join(' and ')}, not ${req.method ?? '?'}`) } };
  }
  return { route };
}

function refused(message: string, reason: string): () => Decision {
  return () => ({ success: false, message, reason });
}
