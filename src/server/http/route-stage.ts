/**
 * The route stage: which part of the sandbox a request is for, and the refusals that need
 * nothing but the request line and headers: no Host (400), a Host that is not the sandbox's
 * (421, origin-policy.ts), an unknown path (404), a CORS preflight (204; 403 for a Private
 * Network Access one), a method the route does not answer (405).
 */
import type { IncomingMessage } from 'node:http';
import { errorFor, plainError, preflight, type ErrorShapeDeps } from './error-shapes.js';
import type { Answer, Decision } from './exchange.js';
import { MESSAGES } from './input-error.js';
import { isPrivateNetworkPreflight, type OriginPolicy } from './origin-policy.js';
import type { PageRoute } from './pages.js';
import { allowedMethods, matchRoute, type Route } from './routes.js';

export interface RouteStageDeps extends ErrorShapeDeps {
  readonly pages: readonly PageRoute[];
  readonly origins: Pick<OriginPolicy, 'hostAllowed' | 'grantsPrivateNetwork'>;
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
  if (!deps.origins.hostAllowed(req.headers.host)) {
    // DNS rebinding: a page whose own name resolves here. Not the sandbox's name: nothing is served.
    const response = errorFor(deps, route, req, 421, MESSAGES.unknownHost);
    return { route, answer: { response, decision: refused(MESSAGES.unknownHost, `Host ${JSON.stringify(String(req.headers.host).slice(0, 100))} is not a name of this sandbox (origin-policy.ts)`) } };
  }
  if (route === undefined) return { route, answer: { response: plainError(404, MESSAGES.notFound), decision: refused(MESSAGES.notFound, 'the sandbox serves nothing at this path') } };
  if (req.method === 'OPTIONS') return { route, answer: preflightAnswer(deps, req, route) };
  const allowed = allowedMethods(route);
  if (!allowed.includes(req.method ?? '')) {
    const response = errorFor(deps, route, req, 405, MESSAGES.methodNotAllowed, { allow: [...allowed, 'OPTIONS'].join(', ') });
    return { route, answer: { response, decision: refused(MESSAGES.methodNotAllowed, `this path answers ${allowed.join(' and ')}, not ${req.method ?? '?'}`) } };
  }
  return { route };
}

/** A CORS preflight; one asking for Private Network Access is refused unless `--cors` names its origin. */
function preflightAnswer(deps: RouteStageDeps, req: IncomingMessage, route: Route): Answer {
  if (isPrivateNetworkPreflight(req.headers) && !deps.origins.grantsPrivateNetwork(req.headers.origin)) {
    return { response: plainError(403, MESSAGES.privateNetwork), decision: refused(MESSAGES.privateNetwork, `a Private Network Access preflight from ${String(req.headers.origin ?? 'no origin').slice(0, 100)}, which --cors does not name`) };
  }
  return { response: preflight(route), decision: () => ({ success: true, reason: 'a CORS preflight' }) };
}

function refused(message: string, reason: string): () => Decision {
  return () => ({ success: false, message, reason });
}
