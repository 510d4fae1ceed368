/**
 * What the request inspector is told of a request the answer stage ends (inspector/record.ts
 * makes the record, later): references to what the stages learned, and what the client got.
 */
import type { RequestDelivery } from '../../api/sandbox-admin.js';
import type { RecordApi } from '../inspector/records.js';
import type { RecordSource } from '../inspector/record.js';
import { clientIp } from './client-ip.js';
import type { FaultedAnswer } from './fault-stage.js';
import { maskPageToken } from './log-line.js';
import type { Answer, Exchange } from './exchange.js';
import type { Route } from './routes.js';

/** The header kactl sends on a request made on its own account (client init's check of a stored session). */
export const PROBE_HEADER = 'x-kactl-probe';

/** What reached the client: the status (0: none), how, and the fault that made it so. */
export interface ClientSaw {
  readonly status: number;
  readonly delivery: RequestDelivery;
  readonly faulted: FaultedAnswer | undefined;
}

export function recordSource(exchange: Exchange, answer: Answer, saw: ClientSaw, durationMs: number, trustProxy: boolean): RecordSource {
  const { req, route } = exchange;
  const method = req.method ?? '?';
  const { faulted } = saw;
  return {
    at: exchange.started,
    api: apiOf(route),
    type: answer.type ?? typeOf(route, method),
    method,
    path: route === undefined || route.kind === 'page' ? maskPageToken(exchange.path) : exchange.path,
    ip: clientIp(req, trustProxy),
    params: exchange.input?.params,
    secretParams: route?.kind === 'page' ? route.pages.find((matched) => matched.page.method === method)?.page.secretParams : undefined,
    status: saw.status,
    // Made now: it reads the store (is the user a license key?), which may change before the record is made.
    decision: answer.decision?.(),
    durationMs,
    delivery: saw.delivery,
    ...(faulted === undefined ? {} : { fault: { id: faulted.fault.id, kind: faulted.fault.kind, arg: faulted.fault.arg }, sentBody: sentBody(answer, faulted) }),
    probe: req.headers[PROBE_HEADER] !== undefined,
  };
}

/** The body a fault sent in place of the genuine one; undefined when the client got the genuine body. */
function sentBody(answer: Answer, faulted: FaultedAnswer): Buffer | undefined {
  const body = faulted.response.body;
  if (!Buffer.isBuffer(body) || body === answer.response.body) return undefined;
  return body;
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
