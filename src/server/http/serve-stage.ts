/**
 * The serve stage: the endpoint of the request's route, given the parsed input and only what
 * that endpoint uses (its own named deps type, made once in server.ts).
 */
import { ADMIN_UNAUTHORIZED_MESSAGE } from './admin-auth.js';
import { clientIp } from './client-ip.js';
import type { EncodedResponse } from './encoded-response.js';
import { serveClient, type ClientEndpointDeps } from './client-endpoint.js';
import { serveClock, type ClockDeps } from './clock-endpoint.js';
import { serveFaults, type FaultsDeps } from './faults-endpoint.js';
import type { Answer, Exchange } from './exchange.js';
import type { RequestBasics } from './handler-context.js';
import type { MaybePromise } from './maybe-async.js';
import { serveOutbox, type OutboxDeps } from './outbox-endpoint.js';
import { serveRequests, type RequestsDeps } from './requests-endpoint.js';
import { servePage, type PageEndpointDeps } from './page-endpoint.js';
import type { RequestSignals } from './request-signals.js';
import type { RequestInput } from './request-input.js';
import type { Route } from './routes.js';
import { serveSeller, type SellerEndpointDeps } from './seller-endpoint.js';
import { serveUiCode, type UiCodeDeps } from './ui-code-endpoint.js';

export interface ServeStageDeps {
  readonly client: ClientEndpointDeps;
  readonly seller: SellerEndpointDeps;
  readonly page: PageEndpointDeps;
  readonly outbox: OutboxDeps;
  readonly clock: ClockDeps;
  readonly requests: RequestsDeps;
  readonly faults: FaultsDeps;
  readonly uiCode: UiCodeDeps;
  /** Take the client IP from X-Forwarded-For. */
  readonly trustProxy: boolean;
  readonly signals: RequestSignals;
}

/** The route's answer; a promise only when something on the way waits (see maybe-async.ts). */
export function serveRoute(deps: ServeStageDeps, route: Route, exchange: Exchange, input: RequestInput): MaybePromise<Answer> {
  const { req, res } = exchange;
  const basics: RequestBasics = {
    ip: clientIp(req, deps.trustProxy),
    request: { method: req.method ?? 'GET', path: input.path, rawQuery: input.rawQuery, headers: req.headers, body: input.body },
    get signal() {
      return deps.signals.signalFor(res);
    },
  };
  switch (route.kind) {
    case 'client':
      return serveClient(deps.client, route.version, input, basics);
    case 'seller':
      return serveSeller(deps.seller, input, basics);
    case 'outbox':
      return adminAnswer(serveOutbox(deps.outbox, req, input.params));
    case 'clock':
      return adminAnswer(serveClock(deps.clock, req, input));
    case 'requests':
      return adminAnswer(serveRequests(deps.requests, req, input.params));
    case 'faults':
      return adminAnswer(serveFaults(deps.faults, req, input.params));
    case 'uiCode':
      return adminAnswer(serveUiCode(deps.uiCode, req));
    case 'page':
      return servePage(deps.page, route.pages, req.method ?? 'GET', input.params, basics);
  }
}

/** An admin route's answer; a refused token is said in words. */
function adminAnswer(response: EncodedResponse): Answer {
  if (response.status !== 401) return { response };
  return { response, decision: () => ({ success: false, message: ADMIN_UNAUTHORIZED_MESSAGE, reason: 'no admin token was sent, or a wrong one' }) };
}
