/**
 * One request on its way through the stages of the request path (request-path.ts): what the
 * stages learn about it is kept here, so the answer stage, the one place every request ends,
 * sees all of it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Decision } from '../inspector/record.js';
import type { EncodedResponse } from './encoded-response.js';
import type { RequestInput } from './request-input.js';
import type { Route } from './routes.js';

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The server's clock (ms) when the request arrived. */
  readonly started: number;
  /** The path as sent, without the query string. */
  readonly path: string;
  /** Which part of the sandbox the path belongs to, once the route stage found it. */
  route?: Route | undefined;
  /** The decoded parameters and body, once the parse stage read them. */
  input?: RequestInput | undefined;
}

export type { Decision };

/** What the route, parse and serve stages hand to the answer stage. */
export interface Answer {
  readonly response: EncodedResponse;
  /** The API `type` served, when the request named one. */
  readonly type?: string | undefined;
  /** The input was refused (bad encoding, too large…): the connection closes after the answer. */
  readonly refusedInput?: boolean;
  /**
   * What was decided and why, from the rule that decided: made only when the request inspector
   * records it (with it off, nothing is spent on it).
   */
  readonly decision?: () => Decision;
}
