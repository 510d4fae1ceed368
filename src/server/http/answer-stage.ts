/**
 * The answer stage: where every request ends, whichever stage answered it. The answer is
 * written to the socket and the request's log line is made here, and nowhere else.
 */
import type { Answer, Exchange } from './exchange.js';
import { requestLogLine } from './log-line.js';
import { writeAnswer, type WriteDeps } from './write-answer.js';

export interface AnswerStageDeps extends WriteDeps {
  readonly log: (line: string) => void;
}

export function answerRequest(deps: AnswerStageDeps, exchange: Exchange, answer: Answer): void {
  const { req, res } = exchange;
  writeAnswer(deps, req, res, answer.response, answer.refusedInput === true);
  deps.log(requestLogLine(req.method, exchange.path, answer.type, answer.response.status, deps.clock() - exchange.started));
}
