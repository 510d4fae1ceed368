/**
 * The answer stage: where every request ends, whichever stage answered it. A fault the tester
 * installed may change the answer first (fault-stage.ts: forged or stale signatures, a replay,
 * another status, an HTML page, a delay, a reset, a cut body); then the answer is written to the
 * socket, and the request's log line and its record in the request inspector are made here, and
 * nowhere else. The record says what the client saw: the faulted answer, a reset, a cut body, or
 * a delay the client gave up on, with the fault that did it.
 *
 * With no fault held the fault stage is one boolean check; with no log sink there is no log
 * line; the record keeps references and is made later (inspector/recorder.ts).
 */
import type { RequestDelivery } from '../../api/sandbox-admin.js';
import type { RequestRecorder } from '../inspector/recorder.js';
import { faultLabel, kindInfo } from '../faults/spec.js';
import type { EncodedResponse } from './encoded-response.js';
import type { Answer, Exchange } from './exchange.js';
import { faultAnswer, type FaultedAnswer, type FaultStageDeps } from './fault-stage.js';
import { requestLogLine } from './log-line.js';
import { recordSource } from './record-source.js';
import { writeAnswer, writeCutShort, type WriteDeps } from './write-answer.js';

export interface AnswerStageDeps extends WriteDeps {
  /** Where the one-line request log goes; undefined when nothing reads it (no line is made). */
  readonly requestLog?: ((line: string) => void) | undefined;
  /** The request inspector; undefined when the sandbox records nothing. */
  readonly recorder: RequestRecorder | undefined;
  /** Take the client IP from X-Forwarded-For (the record's `ip`). */
  readonly trustProxy: boolean;
  /** The faults the tester installed (`/sandbox/faults`); undefined where none can be. */
  readonly faults?: FaultStageDeps | undefined;
}

/** Ends the request; a promise only while a `delay` fault holds the answer back. */
export function answerRequest(deps: AnswerStageDeps, exchange: Exchange, answer: Answer): Promise<void> | undefined {
  const faulted = deps.faults?.book.armed === true ? faultAnswer(deps.faults, exchange, answer) : undefined;
  if (faulted?.delayMs === undefined) return send(deps, exchange, answer, faulted);
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      exchange.res.off('close', gone);
      send(deps, exchange, answer, faulted);
      resolve();
    }, faulted.delayMs);
    // The client gave up, or shutdown closed the connection: nothing is left to send, but the
    // client saw that, and the record says so.
    const gone = (): void => {
      clearTimeout(timer);
      release(faulted.response);
      finish(deps, exchange, answer, faulted, 'abandoned');
      resolve();
    };
    exchange.res.once('close', gone);
  });
}

function send(deps: AnswerStageDeps, exchange: Exchange, answer: Answer, faulted: FaultedAnswer | undefined): undefined {
  const { req, res } = exchange;
  const response = faulted?.response ?? answer.response;
  const delivery = faulted === undefined ? undefined : kindInfo(faulted.fault.kind).delivery;
  if (delivery === 'reset') res.destroy();
  else if (delivery === 'truncated') writeCutShort(deps, res, response);
  else writeAnswer(deps, req, res, response, answer.refusedInput === true);
  finish(deps, exchange, answer, faulted, delivery ?? 'answer');
  return undefined;
}

/** The log line and the record, once the client has what it gets. */
function finish(deps: AnswerStageDeps, exchange: Exchange, answer: Answer, faulted: FaultedAnswer | undefined, delivery: RequestDelivery): void {
  const elapsed = deps.clock() - exchange.started;
  const sent = faulted?.response ?? answer.response;
  const status = delivery === 'reset' || delivery === 'abandoned' ? 0 : sent.status;
  if (deps.requestLog !== undefined) {
    const fault = faulted === undefined ? '' : ` [fault #${faulted.fault.id} ${faultLabel(faulted.fault)}]`;
    deps.requestLog(requestLogLine(exchange.req.method, exchange.path, answer.type, delivery === 'answer' ? sent.status : delivery, elapsed) + fault);
  }
  // Reading the records is not itself recorded: a follower would fill the log with its own reads.
  if (deps.recorder?.recording === true && !unrecorded(exchange)) {
    deps.recorder.record(recordSource(exchange, answer, { status, delivery, faulted }, elapsed, deps.trustProxy));
  }
}

/** What an answer that will not be sent holds (a file's bytes, an open download). */
function release(response: EncodedResponse): void {
  if (!Buffer.isBuffer(response.body)) response.body.finished();
  response.stream?.destroy();
}

/** The admin route of the records, or a page marked unrecorded (the dashboard's views). */
function unrecorded(exchange: Exchange): boolean {
  const { route } = exchange;
  if (route?.kind === 'requests') return true;
  const method = exchange.req.method ?? 'GET';
  return route?.kind === 'page' && route.pages.some((matched) => matched.page.method === method && matched.page.unrecorded === true);
}
