/** Serving a sandbox web page (magic link, password reset, customer panel, shop hook): the page's handler, as HTML. */
import type { Params } from '../dispatch/params.js';
import { domainNow } from '../domain/clock.js';
import { addOutboxMessage } from '../domain/outbox.js';
import type { EncodedResponse } from './encoded-response.js';
import type { Answer } from './exchange.js';
import { plainError } from './error-shapes.js';
import type { RequestBasics } from './handler-context.js';
import { MESSAGES } from './input-error.js';
import type { PageLimits } from './page-limits.js';
import { rateReason } from './rate-limiter.js';
import type { MatchedPage } from './pages.js';
import type { ServerDeps } from './server-deps.js';

/** What the web pages are served with. */
export interface PageEndpointDeps extends Pick<ServerDeps, 'store' | 'clock' | 'baseUrl' | 'log'> {
  /** Page requests per client IP, and the pages' own attempt limits. */
  readonly limits: PageLimits;
}

export const PAGE_RATE_LIMITED = 'Too many requests from this address. Try again in a minute.';

export async function servePage(deps: PageEndpointDeps, pages: readonly MatchedPage[], method: string, params: Params, basics: RequestBasics): Promise<Answer> {
  const { limits } = deps;
  const matched = pages.find((candidate) => candidate.page.method === method);
  if (matched === undefined) return { response: plainError(405, MESSAGES.methodNotAllowed) };
  const limited = limits.hit('page', basics.ip);
  if (!limited.allowed) {
    const reason = rateReason(limited, `page requests from ${basics.ip}`);
    return { response: plainError(429, PAGE_RATE_LIMITED, { 'retry-after': String(limited.retryAfterSeconds) }), decision: () => ({ success: false, message: PAGE_RATE_LIMITED, reason }) };
  }
  const now = domainNow(deps.store, deps.clock());
  const reply = await matched.page.handle(
    {
      store: deps.store,
      now,
      ip: basics.ip,
      baseUrl: deps.baseUrl(),
      request: basics.request,
      get signal() {
        return basics.signal;
      },
      log: deps.log,
      outbox: { send: (message) => addOutboxMessage(deps.store, message, now) },
      pathParams: matched.pathParams,
      limits,
    },
    params,
  );
  const response: EncodedResponse = {
    status: reply.status ?? 200,
    headers: { 'content-type': reply.contentType ?? 'text/html; charset=utf-8', ...reply.headers },
    body: Buffer.from(reply.body, 'utf8'),
    ...(reply.stream ? { stream: reply.stream } : {}),
  };
  return { response };
}
