/**
 * Faults in the answer stage (faults/): which fault, if any, applies to an answer (from the
 * route, the API type and the decision's user), and what it turns the genuine, signed answer
 * into. The admin routes are never faulted, so a fault can always be listed and cleared. With
 * no fault held, the answer stage does not call in here at all (FaultBook `armed`).
 */
import type { KeyObject } from 'node:crypto';
import type { Fault, FaultBook } from '../faults/book.js';
import type { ClientOf, LastAnswers } from '../faults/last-answers.js';
import { answerHmacKey } from '../faults/hmac-key.js';
import type { RequestFacts } from '../faults/made-up-success.js';
import { tamperSuccessApplies } from '../faults/tamper-success.js';
import type { Store } from '../store/store.js';
import { durationMs, kindInfo, type FaultApi } from '../faults/spec.js';
import type { FaultEffect } from '../faults/effect.js';
import { applyFaultKind } from '../faults/transform.js';
import { fail } from '../dispatch/reply.js';
import { clientIp } from './client-ip.js';
import { encodeClientReply } from './client-encoder.js';
import { CLIENT_MESSAGES } from './client-endpoint.js';
import type { EncodedResponse } from './encoded-response.js';
import type { Answer, Exchange } from './exchange.js';
import { genuineRateLimited } from './rate-limited.js';
import type { Route } from './routes.js';
import { encodeSellerReply, SELLER_MESSAGES } from './seller-endpoint.js';
import { UI_BASE } from '../ui/ui-sessions.js';

export interface FaultStageDeps {
  readonly book: FaultBook;
  /** Read only: the app and session of a request, for the 1.2 key `emulate-secret` signs with. */
  readonly store: Store;
  readonly lastAnswers: LastAnswers;
  readonly privateKey: KeyObject;
  readonly forgeKey: KeyObject;
  readonly failureStatus: number;
  /** Take the client IP from X-Forwarded-For (who "the client" of a replay is). */
  readonly trustProxy: boolean;
  /** Real time, ms since the epoch. */
  readonly clock: () => number;
}

export interface FaultedAnswer extends FaultEffect {
  readonly fault: Fault;
}

/** The seconds a rate-limited client is told to wait, as the sandbox's own limits say (one window). */
const RETRY_AFTER_SECONDS = 60;

/** The API a fault may hit; undefined for the admin routes and the dashboard, which are never faulted. */
function faultApi(route: Route | undefined, path: string): FaultApi | undefined {
  if (route === undefined) return undefined;
  if (route.kind === 'client') return route.version;
  if (route.kind === 'page') return path === UI_BASE || path.startsWith(`${UI_BASE}/`) ? undefined : 'page';
  return route.kind === 'seller' ? 'seller' : undefined;
}

/** Who a client API request comes from (faults/last-answers.ts), for a replay; undefined for the other APIs. */
function clientOf(deps: FaultStageDeps, exchange: Exchange, api: FaultApi): ClientOf | undefined {
  if (api !== '1.3' && api !== '1.2') return undefined;
  const params = exchange.input?.params;
  return { api, ip: clientIp(exchange.req, deps.trustProxy), ownerid: params?.get('ownerid') ?? '', name: params?.get('name') ?? '', session: params?.get('sessionid') };
}

/**
 * The faulted answer, or undefined when no fault fires; while a replay fault is held, a genuine
 * signed client answer is remembered for a later replay.
 */
export function faultAnswer(deps: FaultStageDeps, exchange: Exchange, answer: Answer): FaultedAnswer | undefined {
  const api = faultApi(exchange.route, exchange.path);
  if (api === undefined) return undefined;
  const client = deps.book.remembers ? clientOf(deps, exchange, api) : undefined;
  const { response } = answer;
  const previous = client === undefined ? undefined : deps.lastAnswers.previous(client);
  const previousOfType = client === undefined ? undefined : deps.lastAnswers.previousOfType(client, answer.type);
  const fault = deps.book.pick({
    api,
    type: answer.type,
    user: () => answer.decision?.().user,
    applies: (candidate) => {
      const info = kindInfo(candidate.kind);
      if (info.needsPrevious === 'last' && previous === undefined) return false;
      if (info.needsPrevious === 'of-type' && previousOfType === undefined) return false;
      // tamper-success fires only where it makes a success a program would act on.
      if (candidate.kind === 'tamper-success') return Buffer.isBuffer(response.body) && tamperSuccessApplies(response.body);
      // A download piped from a stream (the customer panel) has no body to sign or cut.
      return response.stream === undefined || info.needsBody !== true;
    },
  });
  if (fault === undefined) {
    if (client !== undefined && isSigned(response)) deps.lastAnswers.remember(client, response, answer.type);
    return undefined;
  }
  const params = exchange.input?.params;
  const request: RequestFacts = {
    api: api === '1.2' ? '1.2' : '1.3',
    type: answer.type,
    param: (name) => params?.get(name),
    ip: clientIp(exchange.req, deps.trustProxy),
    nowMs: deps.clock(),
  };
  const effect = applyFaultKind(fault, response, {
    api,
    privateKey: deps.privateKey,
    forgeKey: deps.forgeKey,
    nowMs: request.nowMs,
    previous,
    previousOfType,
    request,
    appHmacKey: () => answerHmacKey(deps.store, request, request.nowMs),
    rateLimited: () => rateLimitedResponse(deps, api, params?.get('ownerid'), fault.arg === undefined ? RETRY_AFTER_SECONDS : Math.ceil(durationMs(fault.arg) / 1000)),
  });
  return { ...effect, fault };
}

function isSigned(response: EncodedResponse): boolean {
  return response.headers['x-signature-ed25519'] !== undefined || response.headers['signature'] !== undefined;
}

/**
 * The answer the sandbox sends when its own rate limit is reached, for this API and mode; the
 * wait it asks for (spec-strict and 1.3: Retry-After) may be set by the fault's argument.
 */
function rateLimitedResponse(deps: FaultStageDeps, api: FaultApi, ownerid: string | undefined, retryAfterSeconds: number): EncodedResponse {
  const limited = { ...fail(api === 'seller' ? SELLER_MESSAGES.rateLimited : CLIENT_MESSAGES.rateLimited), status: 429, headers: { 'retry-after': String(retryAfterSeconds) } };
  if (api === 'seller') return deps.failureStatus === 200 ? genuineRateLimited(SELLER_MESSAGES.rateLimited) : encodeSellerReply(limited, false, deps.failureStatus);
  if (api === '1.2' && deps.failureStatus === 200) return genuineRateLimited(CLIENT_MESSAGES.rateLimited);
  return encodeClientReply(
    { ...limited, unsigned: true },
    { version: api === '1.2' ? '1.2' : '1.3', ownerid: ownerid ?? null, app: undefined, session: undefined, isInit: false, failureStatus: deps.failureStatus, privateKey: deps.privateKey, nowMs: deps.clock() },
  );
}
