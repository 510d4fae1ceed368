/**
 * The answer stage: where every request ends, whichever stage answered it. The answer is
 * written to the socket, and the request's log line and its record in the request inspector
 * are made here, and nowhere else.
 *
 * Faults (a forged or stale signature, another status, an HTML page, a delay, a reset…) belong
 * here too: a fault is a transformation of `answer.response` (the encoded, signed answer)
 * before `writeAnswer`, or of the socket write itself, chosen by what the Exchange and the
 * Answer say (route, API, type, the decision's user); see src/server/README.md.
 */
import type { RequestRecorder } from '../inspector/recorder.js';
import type { Answer, Exchange } from './exchange.js';
import { requestLogLine } from './log-line.js';
import { recordSource } from './record-source.js';
import { writeAnswer, type WriteDeps } from './write-answer.js';

export interface AnswerStageDeps extends WriteDeps {
  readonly log: (line: string) => void;
  /** The request inspector; undefined when the sandbox records nothing. */
  readonly recorder: RequestRecorder | undefined;
  /** Take the client IP from X-Forwarded-For (the record's `ip`). */
  readonly trustProxy: boolean;
}

export function answerRequest(deps: AnswerStageDeps, exchange: Exchange, answer: Answer): void {
  const { req, res } = exchange;
  writeAnswer(deps, req, res, answer.response, answer.refusedInput === true);
  const elapsed = deps.clock() - exchange.started;
  deps.log(requestLogLine(req.method, exchange.path, answer.type, answer.response.status, elapsed));
  // Reading the records is not itself recorded: a follower would fill the log with its own reads.
  if (deps.recorder?.recording === true && exchange.route?.kind !== 'requests') {
    deps.recorder.record(recordSource(exchange, answer, elapsed, deps.trustProxy));
  }
}
