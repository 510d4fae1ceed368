/**
 * Reading client answers where the wire lies about success (docs/protocol/client-api.md §4.13, §4.23, §4.24):
 * some refusals come back as `success:true` with the refusal in `message`. A tester's script
 * must see those as failures (exit 1), so the commands check for them here, with the patterns
 * the client catalog records (src/api/client-catalog/, `quirks.refusalAsSuccess`).
 */
import { refusalAsSuccess } from '../../api/client-catalog/index.js';
import { ApiFailure } from '../../errors.js';

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

/** The nested object at `key`, if the answer has one. */
export function objectField(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
