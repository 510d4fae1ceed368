/**
 * `/api/1.3/` and `/api/1.2/`: the global checks of docs/protocol/client-api.md §1.4 in the source's order,
 * then dispatch on `type` to the shared client handler table.
 */
import type { KeyObject } from 'node:crypto';
import { findAppByNameAndOwnerid } from '../domain/apps.js';
import type { ApiVersion, AppRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import { because, fail } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { encodeClientReply } from './client-encoder.js';
import { replyDecision, requestUser } from './decision.js';
import type { Answer, Decision } from './exchange.js';
import { createHandlerContext, runHandler, type HandlerContextDeps, type RequestBasics } from './handler-context.js';
import { genuineRateLimited } from './rate-limited.js';
import { isPromise, type MaybePromise } from './maybe-async.js';
import type { EncodedResponse } from './encoded-response.js';
import { rateReason, type FixedWindowLimiter } from './rate-limiter.js';
import type { RequestInput } from './request-input.js';

const PANEL_HINT = 'Select app & copy code snippet from https://keyauth.cc/app/';
export const CLIENT_MESSAGES = {
  noOwnerid: `No OwnerID specified. ${PANEL_HINT}`,
  noName: `No app name specified. ${PANEL_HINT}`,
  owneridLength: `OwnerID should be 10 characters long. ${PANEL_HINT}`,
  rateLimited: 'This application has sent too many requests. Try again in a minute.',
  appBanned: 'This application has been banned from KeyAuth.cc for violating terms.',
  /** 1.3 spelling, which the C++ SDK's file fallback looks for. */
  unknownType13: 'The value inputted for type parameter was not found',
  /** 1.2 keeps the source's spelling. */
  unknownType12: 'The value inputted for type paramater was not found',
  invalidApp: 'KeyAuth_Invalid',
} as const;

/** The global errors go out unsigned in 1.2, as the source sends them. */
function globalFailure(message: string, reason: string): Reply {
  return { ...fail(message), unsigned: true, reason };
}

/** What the client APIs are served with. */
export interface ClientEndpointDeps extends HandlerContextDeps {
  /** `type` → handler (client/index.ts). */
  readonly handlers: HandlerTable;
  /** Signs 1.3 answers. */
  readonly privateKey: KeyObject;
  /** Requests per client IP and application; consulted only with rate limits on. */
  readonly limiter: FixedWindowLimiter;
}

/** What the checks learned on the way to the handler: the encoder needs the app and session (1.2 HMAC key). */
interface Gate {
  app?: AppRow;
  ctx?: HandlerContext;
  limited?: boolean;
}

/** The answer; a promise only when the handler awaits something (see maybe-async.ts). */
export function serveClient(deps: ClientEndpointDeps, version: ApiVersion, input: RequestInput, basics: RequestBasics): MaybePromise<Answer> {
  const { params } = input;
  const ownerid = params.get('ownerid');
  const type = params.get('type');
  const gate: Gate = {};
  const reply = clientReply(version, type, ownerid, params.get('name'), params, basics, deps, gate);
  // A plain call when the handler answered at once, which is most requests.
  if (!isPromise(reply)) return new ClientAnswer(deps, version, type, ownerid, params, gate, reply);
  return reply.then((ready) => new ClientAnswer(deps, version, type, ownerid, params, gate, ready));
}

/**
 * An answer of the client API: encoded and signed when made; what it decided is worked out only
 * when the request inspector asks (a method, not a closure made for each request).
 */
class ClientAnswer implements Answer {
  readonly response: EncodedResponse;

  constructor(
    readonly deps: ClientEndpointDeps,
    version: ApiVersion,
    readonly type: string | undefined,
    ownerid: string | undefined,
    readonly params: Params,
    readonly gate: Gate,
    readonly reply: Reply,
  ) {
    // Hosted mode: 1.2 gets the genuine server's unsigned 200; 1.3 keeps the signed 429, the one
    // form the 1.3 SDKs react to (docs/design.md, "Rate limiting").
    if (gate.limited === true && deps.options.failureStatus === 200 && version === '1.2') this.response = genuineRateLimited(CLIENT_MESSAGES.rateLimited);
    else {
      this.response = encodeClientReply(reply, {
        version,
        ownerid: ownerid ?? null,
        app: gate.app,
        session: gate.ctx?.session,
        isInit: type === 'init',
        failureStatus: deps.options.failureStatus,
        privateKey: deps.privateKey,
        nowMs: deps.clock(),
      });
    }
  }

  /**
   * One function shared by every answer, kept as an own property so that a copy of the answer
   * (`{ ...answer, response }`, a faulted one) keeps it, with the fields it reads.
   */
  readonly decision: (this: ClientAnswer) => Decision = clientDecision;
}

function clientDecision(this: ClientAnswer): Decision {
  const { app, ctx } = this.gate;
  return replyDecision(this.reply, app === undefined ? undefined : requestUser(this.deps.store, app.id, ctx?.session?.credential, this.params));
}

function clientReply(
  version: ApiVersion,
  type: string | undefined,
  ownerid: string | undefined,
  name: string | undefined,
  params: Params,
  basics: RequestBasics,
  deps: ClientEndpointDeps,
  known: Gate,
): MaybePromise<Reply> {
  if (ownerid === undefined) return globalFailure(CLIENT_MESSAGES.noOwnerid, 'no ownerid was sent');
  if (name === undefined) return globalFailure(CLIENT_MESSAGES.noName, 'no app name was sent');
  if (ownerid.length !== 10) return globalFailure(CLIENT_MESSAGES.owneridLength, `the ownerid is ${ownerid.length} characters; it must be 10`);
  if (deps.options.rateLimit) {
    const decision = deps.limiter.hit(`${basics.ip}\u0000${ownerid}\u0000${name}`);
    if (!decision.allowed) {
      known.limited = true;
      const reason = rateReason(decision, `requests from ${basics.ip} to this app`);
      return { ...globalFailure(CLIENT_MESSAGES.rateLimited, reason), status: 429, headers: { 'retry-after': String(decision.retryAfterSeconds) } };
    }
  }
  const app = findAppByNameAndOwnerid(deps.store, name, ownerid);
  known.app = app;
  if (app === undefined) return because({ success: false, fields: {}, text: CLIENT_MESSAGES.invalidApp, unsigned: true }, `no app is named ${name} with ownerid ${ownerid}`);
  if (app.banned) return globalFailure(CLIENT_MESSAGES.appBanned, 'the app is banned');
  const handler = type === undefined ? undefined : Object.hasOwn(deps.handlers, type) ? deps.handlers[type] : undefined;
  if (handler === undefined || type === undefined) {
    return globalFailure(version === '1.3' ? CLIENT_MESSAGES.unknownType13 : CLIENT_MESSAGES.unknownType12, type === undefined ? 'no type was sent' : `the client API has no type ${type}`);
  }
  const ctx = createHandlerContext(deps, version, type, app, basics);
  known.ctx = ctx;
  return runHandler(handler, ctx, params, deps.log);
}
