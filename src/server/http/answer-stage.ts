/**
 * The answer stage: where every request ends, whichever stage answered it. A fault the tester
 * installed may change the answer first (fault-stage.ts: forged or stale signatures, a replay,
 * another status, an HTML page, a delay, a reset, a cut body); then the answer is written to the
 * socket, and the request's log line and its record in the request inspector are made here, and
 * nowhere else. A faulted answer's record says which fault changed it.
 */
import type { RequestRecorder } from '../inspector/recorder.js';
import { faultLabel } from '../faults/spec.js';
import type { Answer, Exchange } from './exchange.js';
import { faultAnswer, type FaultedAnswer, type FaultStageDeps } from './fault-stage.js';
import { requestLogLine } from './log-line.js';
import { recordSource } from './record-source.js';
import { writeAnswer, writeCutShort, type WriteDeps } from './write-answer.js';

export interface AnswerStageDeps extends WriteDeps {
  readonly log: (line: string) => void;
  /** The request inspector; undefined when the sandbox records nothing. */
  readonly recorder: RequestRecorder | undefined;
  /** Take the client IP from X-Forwarded-For (the record's `ip`). */
  readonly trustProxy: boolean;
  /** The faults the tester installed (`/sandbox/faults`); undefined where none can be. */
  readonly faults?: FaultStageDeps | undefined;
}

/** Ends the request; a promise only while a `delay` fault holds the answer back. */
export function answerRequest(deps: AnswerStageDeps, exchange: Exchange, answer: Answer): Promise<void> | undefined {
  const faulted = deps.faults === undefined ? undefined : faultAnswer(deps.faults, exchange, answer);
  if (faulted?.delayMs === undefined) return send(deps, exchange, answer, faulted);
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      exchange.res.off('close', gone);
      send(deps, exchange, answer, faulted);
      resolve();
    }, faulted.delayMs);
    // The client gave up, or shutdown closed the connection: nothing is left to send.
    const gone = (): void => {
      clearTimeout(timer);
      resolve();
    };
    exchange.res.once('close', gone);
  });
}

function send(deps: AnswerStageDeps, exchange: Exchange, answer: Answer, faulted: FaultedAnswer | undefined): undefined {
  const { req, res } = exchange;
  const response = faulted?.response ?? answer.response;
  if (faulted?.socket === 'reset') res.destroy();
  else if (faulted?.socket === 'truncate') writeCutShort(deps, res, response);
  else writeAnswer(deps, req, res, response, answer.refusedInput === true);
  const elapsed = deps.clock() - exchange.started;
  const fault = faulted === undefined ? undefined : `#${faulted.fault.id} ${faultLabel(faulted.fault)}`;
  deps.log(requestLogLine(req.method, exchange.path, answer.type, response.status, elapsed) + (fault === undefined ? '' : ` [fault ${fault}]`));
  // Reading the records is not itself recorded: a follower would fill the log with its own reads.
  if (deps.recorder?.recording === true && !unrecorded(exchange)) {
    const faultedAnswer = faulted === undefined ? answer : { ...answer, response };
    deps.recorder.record({ ...recordSource(exchange, faultedAnswer, elapsed, deps.trustProxy), ...(fault === undefined ? {} : { fault }) });
  }
  return undefined;
}

/** The admin route of the records, or a page marked unrecorded (the dashboard's views). */
function unrecorded(exchange: Exchange): boolean {
  const { route } = exchange;
  if (route?.kind === 'requests') return true;
  const method = exchange.req.method ?? 'GET';
  return route?.kind === 'page' && route.pages.some((matched) => matched.page.method === method && matched.page.unrecorded === true);
}
