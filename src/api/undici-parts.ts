/**
 * The two parts of undici a CLI request uses: the keep-alive Agent and the request API. undici's
 * index also sets up fetch, WebSocket, caches, proxies and mocks, which cost a one-request
 * command more start-up time than its request; these files load only the HTTP/1.1 client path.
 * `undici` (no exports map) allows these paths; its types still come from the package.
 */
import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import requestApi from 'undici/lib/api/api-request.js';

export const Agent = AgentClass;

/** undici's `request(url, options)`, on the dispatcher named in the options. */
export function undiciRequest(url: URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return requestApi.call(dispatcher, { ...rest, origin: url.origin, path: `${url.pathname}${url.search}` });
}
