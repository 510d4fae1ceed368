/**
 * Reading client answers for the commands. Some refusals come back as `success:true` with the
 * refusal in `message` (docs/protocol/client-api.md §4.13, §4.23, §4.24): a tester's script must
 * see those as failures (exit 1), so the commands check for them with the library's reading
 * (src/api/disguised-refusal.ts), which kactl/client's methods share.
 */
export { messageText, refuseDisguisedFailure } from '../../api/disguised-refusal.js';

/** The nested object at `key`, if the answer has one. */
export function objectField(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
