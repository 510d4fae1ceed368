/** What the request inspector is told of a request the answer stage ends (inspector/record.ts makes the record). */
import type { RecordApi } from '../inspector/records.js';
import type { RecordSource } from '../inspector/record.js';
import { clientIp } from './client-ip.js';
import { maskPageToken } from './log-line.js';
import type { Answer, Exchange } from './exchange.js';
import type { Route } from './routes.js';

export function recordSource(exchange: Exchange, answer: Answer, durationMs: number, trustProxy: boolean): RecordSource {
  const { req, route } = exchange;
  const method = req.method ?? '?';
  return {
    at: exchange.started,
    api: apiOf(route),
    type: answer.type ?? typeOf(route, method),
    method,
    path: maskPageToken(exchange.path),
    ip: clientIp(req, trustProxy),
    params: exchange.input?.params,
    status: answer.response.status,
    decision: answer.decision?.(),
    durationMs,
  };
}

function apiOf(route: Route | undefined): RecordApi {
  switch (route?.kind) {
    case undefined:
      return 'other';
    case 'client':
      return route.version;
    case 'seller':
    case 'page':
      return route.kind;
    case 'outbox':
    case 'clock':
    case 'requests':
    case 'faults':
    case 'uiCode':
      return 'admin';
  }
}

/** A page's path pattern (`/sandbox/magic/:token`), an admin route's name; else none. */
function typeOf(route: Route | undefined, method: string): string | undefined {
  if (route === undefined || route.kind === 'client' || route.kind === 'seller') return undefined;
  if (route.kind !== 'page') return route.kind;
  return (route.pages.find((matched) => matched.page.method === method) ?? route.pages[0])?.page.path;
}
