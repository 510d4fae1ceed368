/** Serving a sandbox web page (magic link, password reset): the page's handler, as HTML. */
import type { Params } from '../dispatch/params.js';
import { domainNow } from '../domain/clock.js';
import { addOutboxMessage } from '../domain/outbox.js';
import type { EncodedResponse } from './encoded-response.js';
import { plainError } from './error-shapes.js';
import type { RequestBasics } from './handler-context.js';
import { MESSAGES } from './input-error.js';
import type { MatchedPage } from './pages.js';
import type { ServerDeps } from './server-deps.js';

export async function servePage(deps: ServerDeps, pages: readonly MatchedPage[], method: string, params: Params, basics: RequestBasics): Promise<EncodedResponse> {
  const matched = pages.find((candidate) => candidate.page.method === method);
  if (matched === undefined) return plainError(405, MESSAGES.methodNotAllowed);
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
    },
    params,
  );
  return {
    status: reply.status ?? 200,
    headers: { 'content-type': reply.contentType ?? 'text/html; charset=utf-8', ...reply.headers },
    body: Buffer.from(reply.body, 'utf8'),
    ...(reply.stream ? { stream: reply.stream } : {}),
  };
}
