/** Building Replies. `ok('Logged in!', { info })` → `{"success":true,"message":"Logged in!","info":…,"nonce":…}`. */
import type { Reply } from './types.js';

/** `success:true`, `message`, then `extra` fields in order. Client APIs add a nonce. */
export function ok(message: string, extra: Readonly<Record<string, unknown>> = {}): Reply {
  return { success: true, fields: { message, ...extra } };
}

/** `success:false`, `message`, then `extra` fields in order. No nonce. */
export function fail(message: string, extra: Readonly<Record<string, unknown>> = {}): Reply {
  return { success: false, fields: { message, ...extra } };
}

/** Any shape: `reply(true, { '2fa': {…} }, { nonce: false })` (no message, no nonce). */
export function reply(success: boolean, fields: Readonly<Record<string, unknown>>, options: Omit<Reply, 'success' | 'fields'> = {}): Reply {
  return { ...options, success, fields };
}
