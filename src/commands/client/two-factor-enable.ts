/**
 * Turning 2FA on is two calls (spec §4.1 rule 4): the first returns a secret and its otpauth
 * URI, the second confirms it with a code from an authenticator app.
 *
 * - `--code`: only the second call.
 * - On a terminal (and no --json): the walkthrough — QR code and secret on stderr, a prompt for
 *   the code (three tries), the second call, a clear result.
 * - Otherwise: the first call's secret and URI on stdout, the next step on stderr, exit 0.
 */
import type { ClientApi } from '../../api/client-api.js';
import type { Context } from '../../context.js';
import { ApiFailure, NetworkError } from '../../errors.js';
import { messageText, objectField, refuseDisguisedFailure } from './answers.js';
import { askTotpCode } from './inputs.js';
import { renderQr } from '../../io/qr.js';

const TRIES = 3;
const NEXT_STEP = 'kactl client 2fa enable --code <6-digit code>';

interface PendingSecret {
  secret: string;
  uri: string;
}

export async function twoFactorEnableRun(ctx: Context, code: string | undefined): Promise<void> {
  const api = await ctx.clientApi();
  if (code !== undefined) {
    const body = await confirm(api, code);
    return reportEnabled(ctx, body);
  }
  const first = await api.call('2faenable', {});
  refuseDisguisedFailure('2faenable', first);
  const pending = pendingSecret(first);
  if (ctx.io.canPrompt() && !ctx.output.wantsJson) return walkthrough(ctx, api, pending);
  if (ctx.output.wantsJson) ctx.output.json(first);
  else ctx.output.record({ secret: pending.secret, uri: pending.uri });
  ctx.output.note(`Add the secret to an authenticator app, then finish within 5 minutes with: ${NEXT_STEP}`);
}

function pendingSecret(body: Record<string, unknown>): PendingSecret {
  const twoFactor = objectField(body, '2fa');
  const secret = twoFactor?.secret_code;
  const uri = twoFactor?.QRCode;
  if (typeof secret !== 'string' || secret === '') {
    throw new NetworkError(`The server's 2faenable answer has no 2fa.secret_code${messageText(body) ? ` (it said: ${messageText(body)})` : ''}.`);
  }
  return { secret, uri: typeof uri === 'string' && uri !== '' ? uri : `otpauth://totp/kactl?secret=${secret}&issuer=KeyAuth` };
}

async function confirm(api: ClientApi, code: string): Promise<Record<string, unknown>> {
  const body = await api.call('2faenable', { code });
  refuseDisguisedFailure('2faenable', body);
  return body;
}

function reportEnabled(ctx: Context, body: Record<string, unknown>): void {
  if (ctx.output.wantsJson) return ctx.output.json(body);
  ctx.output.success(`Two-factor authentication is on${messageText(body) ? ` (server: ${messageText(body)})` : ''}. Logins now need --code.`);
}

async function walkthrough(ctx: Context, api: ClientApi, pending: PendingSecret): Promise<void> {
  ctx.io.err(`Scan this QR code with an authenticator app (Google Authenticator, Aegis, 1Password, …):\n\n`);
  ctx.io.err(await renderQr(pending.uri));
  ctx.io.err(`\nOr type the secret in by hand: ${pending.secret}\n\n`);
  for (let attempt = 1; ; attempt += 1) {
    const code = await askTotpCode(ctx, undefined, 'Code the app shows (6 digits)');
    try {
      return reportEnabled(ctx, await confirm(api, code));
    } catch (error) {
      // A wrong code leaves the secret pending: let the user try again, a few times.
      if (!(error instanceof ApiFailure) || !/invalid/i.test(error.message) || attempt >= TRIES) throw error;
      ctx.output.warn(`${error.message} (try ${attempt} of ${TRIES}); check the app and the clock of this machine.`);
    }
  }
}
