/**
 * One login call (login, loginEmail, license, emailCodeVerify) that copes with two-factor
 * authentication: when the server says a code is needed and none was given, a terminal is asked
 * for it and the call is made again; without a terminal the error names the flag to add.
 */
import type { ClientApi, ParamValue } from '../../api/client-api.js';
import type { Context } from '../../context.js';
import { ApiFailure } from '../../errors.js';
import { askTotpCode } from './inputs.js';

/** The server's answer when an account with 2FA on logs in without a code (docs/protocol/client-api.md §4.2). */
export const CODE_REQUIRED = /2fa code required/i;

export interface TotpParam {
  /** The code given on the command line, if any. */
  code: string | undefined;
  /** The wire name of the 2FA code: `code`, except `totp` where `code` means something else. */
  wire?: string;
  /** The flag that supplies it, for the error without a terminal. */
  flag?: string;
}

/**
 * Asks a terminal for the 2FA code the server wants; without one, rethrows `refusal` with a
 * hint naming the flag.
 */
export async function askCodeAfterRefusal(ctx: Context, refusal: ApiFailure, flag = '--code'): Promise<string> {
  if (!ctx.io.canPrompt()) {
    throw new ApiFailure(refusal.message, refusal.body, refusal.status, {
      hints: [`This account has two-factor authentication on: add ${flag} with the 6-digit code from the authenticator app.`],
    });
  }
  ctx.output.note('This account has two-factor authentication on.');
  return askTotpCode(ctx, undefined);
}

export async function callLogin(
  ctx: Context,
  api: ClientApi,
  type: string,
  params: Readonly<Record<string, ParamValue>>,
  totp: TotpParam,
): Promise<Record<string, unknown>> {
  const wire = totp.wire ?? 'code';
  try {
    return await api.call(type, { ...params, [wire]: totp.code });
  } catch (error) {
    if (totp.code !== undefined || !(error instanceof ApiFailure) || !CODE_REQUIRED.test(error.message)) throw error;
    const entered = await askCodeAfterRefusal(ctx, error, totp.flag);
    return api.call(type, { ...params, [wire]: entered });
  }
}
