/**
 * The request path, in the stages fastify's request lifecycle has (routing, body parsing,
 * the handler, sending): **route** (route-stage.ts: which part of the sandbox, and refusals
 * from the request line alone), **parse** (parse-stage.ts: parameters and body, with the
 * limits), **serve** (serve-stage.ts: the route's endpoint), **answer** (answer-stage.ts: the
 * one place every request ends, answered by whichever stage). A refusal or a failure thrown on
 * the way becomes an answer in the route's error shape here.
 *
 * Synchronous (no promise) from start to write when nothing on the way waits: a GET to a
 * synchronous handler, which is most requests (see maybe-async.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerRequest, type AnswerStageDeps } from './answer-stage.js';
import { errorFor, type ErrorShapeDeps } from './error-shapes.js';
import type { Answer, Decision, Exchange } from './exchange.js';
import { InputError, MESSAGES } from './input-error.js';
import { loggable, maskPageToken } from './log-line.js';
import { andThen, isPromise, type MaybePromise } from './maybe-async.js';
import { parseRequest } from './parse-stage.js';
import { splitUrl } from './request-input.js';
import { routeRequest, type RouteStageDeps } from './route-stage.js';
import { serveRoute, type ServeStageDeps } from './serve-stage.js';

export interface RequestPathDeps {
  readonly route: RouteStageDeps;
  readonly serve: ServeStageDeps;
  readonly answer: AnswerStageDeps;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  readonly log: (line: string) => void;
}

/** Answers one request; a promise only while something on the way waits. */
export function handleRequest(deps: RequestPathDeps, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const exchange: Exchange = { req, res, started: deps.clock(), path: splitUrl(req.url ?? '/').path };
  let answer: MaybePromise<Answer>;
  try {
    answer = routeParseServe(deps, exchange);
  } catch (err) {
    answer = failureAnswer(deps.route, deps.log, exchange, err);
  }
  // A promise only while a `delay` fault holds the answer back (answer-stage.ts). The closures
  // below are made only for a request that waits: most are answered at once, without them.
  if (!isPromise(answer)) return answerRequest(deps.answer, exchange, answer);
  const finish = (ready: Answer): Promise<void> | undefined => answerRequest(deps.answer, exchange, ready);
  return answer.then(finish, (err: unknown) => finish(failureAnswer(deps.route, deps.log, exchange, err)));
}

function routeParseServe(deps: RequestPathDeps, exchange: Exchange): MaybePromise<Answer> {
  const routed = routeRequest(deps.route, exchange.req, exchange.path);
  exchange.route = routed.route;
  if (routed.answer !== undefined) return routed.answer;
  const { route } = routed;
  return andThen(parseRequest(exchange.req, route), (input) => {
    exchange.input = input;
    return serveRoute(deps.serve, route, exchange, input);
  });
}

/** A refused input (its status and message) or a failure (500, details only in the log). */
function failureAnswer(deps: ErrorShapeDeps, log: (line: string) => void, exchange: Exchange, err: unknown): Answer {
  const { req, route } = exchange;
  if (err instanceof InputError) {
    const decision = (): Decision => ({ success: false, message: err.message, reason: err.reason ?? err.message });
    return { response: errorFor(deps, route, req, err.status, err.message, err.headers), refusedInput: true, decision };
  }
  log(`request ${req.method ?? '?'} ${loggable(maskPageToken(exchange.path))} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const decision = (): Decision => ({ success: false, message: MESSAGES.internal, reason: 'the sandbox failed answering (its log has the details)' });
  return { response: errorFor(deps, route, req, 500, MESSAGES.internal), decision };
}
