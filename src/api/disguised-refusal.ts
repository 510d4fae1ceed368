/**
 * Client answers where the wire lies about success (docs/protocol/client-api.md §4.13, §4.23,
 * §4.24): some refusals come back as `success:true` with the refusal in `message`. The patterns
 * are the client catalog's (src/api/client-catalog/, `quirks.refusalAsSuccess`); the CLI's
 * commands (exit 1) and kactl/client's methods (an ApiFailure) both read answers through here, so
 * a program sees the same refusal a tester's script does.
 */
import { refusalAsSuccess } from './client-catalog/index.js';
import { ApiFailure } from './errors.js';

/** The answer's `message` as text ('' when absent). */
export function messageText(body: Record<string, unknown>): string {
  return typeof body.message === 'string' ? body.message : '';
}

/** Throws ApiFailure when a `success:true` answer of `type` is really a refusal. */
export function refuseDisguisedFailure(type: string, body: Record<string, unknown>): void {
  const pattern = refusalAsSuccess(type);
  const message = messageText(body);
  if (pattern !== undefined && pattern.test(message)) throw new ApiFailure(message, body, 200);
}
