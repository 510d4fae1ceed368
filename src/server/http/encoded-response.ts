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

/**
 * Status of a reply under docs/design.md's "HTTP status of a failure": explicit, else 200 for a
 * success; a failure is 400 in the spec-strict mode, else its hosted status (seller) or 200.
 */
export function replyStatus(reply: { success: boolean; status?: number | undefined; hostedStatus?: number | undefined }, failureStatus: number): number {
  if (reply.status !== undefined) return reply.status;
  if (reply.success) return 200;
  return failureStatus === 200 ? (reply.hostedStatus ?? 200) : failureStatus;
}
