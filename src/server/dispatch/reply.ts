/** Building Replies. `ok('Logged in!', { info })` → `{"success":true,"message":"Logged in!","info":…,"nonce":…}`. */
import type { Because } from '../domain/outcome.js';
import type { HostedFailureStatus, Reply } from './types.js';

/** `success:true`, `message`, then `extra` fields in order. Client APIs add a nonce. */
export function ok(message: string, extra: Readonly<Record<string, unknown>> = {}): Reply {
  return { success: true, fields: { message, ...extra } };
}

/** `success:false`, `message`, then `extra` fields in order. No nonce. */
export function fail(message: string, extra: Readonly<Record<string, unknown>> = {}): Reply {
  return { success: false, fields: { message, ...extra } };
}

/**
 * A seller failure the hosted seller API answers with its own status (`406 No keys found`); the
 * spec-strict mode still answers it 400 (http/encoded-response.ts).
 */
export function failWithStatus(hostedStatus: HostedFailureStatus, message: string, extra: Readonly<Record<string, unknown>> = {}): Reply {
  return { success: false, fields: { message, ...extra }, hostedStatus };
}

/** Any shape: `reply(true, { '2fa': {…} }, { nonce: false })` (no message, no nonce). */
export function reply(success: boolean, fields: Readonly<Record<string, unknown>>, options: Omit<Reply, 'success' | 'fields'> = {}): Reply {
  return { ...options, success, fields };
}

/** The reply with the reason (and the user) the rule that decided gave; not sent, recorded. */
export function because(answer: Reply, why: Because | string | undefined): Reply {
  if (why === undefined) return answer;
  if (typeof why === 'string') return { ...answer, reason: why };
  return { ...answer, ...(why.reason === undefined ? {} : { reason: why.reason }), ...(why.user === undefined ? {} : { user: why.user }) };
}

/** A domain refusal as the client API words it: its message, with its reason and user. */
export function refusal(outcome: { readonly message: string } & Because): Reply {
  return because(fail(outcome.message), outcome);
}
