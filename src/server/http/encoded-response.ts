import type { Readable } from 'node:stream';
import type { StreamedBody } from './streamed-body.js';

/**
 * A response ready to write: status, headers and the exact body bytes (already signed), whole
 * or, for a large file answer, produced piece by piece as it is sent.
 */
export interface EncodedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | StreamedBody;
  /** Written instead of `body` when given (panel downloads); `content-length` then comes from `headers`. */
  readonly stream?: Readable;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Status of a reply under the sandbox's policy (docs/design.md): explicit, else 200 / failure status. */
export function replyStatus(reply: { success: boolean; status?: number | undefined }, failureStatus: number): number {
  return reply.status ?? (reply.success ? 200 : failureStatus);
}
