/**
 * Waiting for a magic link's approval: polls `magicLinkCheck` on the stored session until the
 * server says approved (a login answer with `info`), expired, or something else; or until our
 * own timeout, or Ctrl-C. A spinner and a countdown show on a terminal.
 *
 * The spec names the operation but not its answers, so a pending link is recognised by a
 * `status` field or by the words of its message, whichever the server uses (docs/protocol/client-api.md §4.27).
 * A link proves the mailbox, not the second factor: an account with 2FA sends its code with the
 * check (`--code`, or asked for on a terminal when the server wants it).
 */
import type { ClientApi } from '../../api/client-api.js';
import type { Context } from '../../context.js';
import { ApiFailure, InterruptedError, KactlError } from '../../errors.js';
import { createSpinner, formatCountdown } from '../../io/spinner.js';
import { messageText, objectField } from './answers.js';
import { askCodeAfterRefusal, CODE_REQUIRED } from './login-call.js';
import { markLoggedIn } from './session-state.js';
import { showUser } from './user-view.js';

export type MagicState = 'approved' | 'pending' | 'expired' | 'refused';

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 3000;
const PENDING_WORDS = /pending|waiting|not (yet )?(been )?approved|awaiting/i;
const EXPIRED_WORDS = /expired|already (been )?used|no longer valid/i;

/** What one `magicLinkCheck` answer means. */
export function magicState(body: Record<string, unknown>): MagicState {
  const status = typeof body.status === 'string' ? body.status.toLowerCase() : '';
  if (status === 'pending') return 'pending';
  if (status === 'expired' || status === 'used') return 'expired';
  const message = messageText(body);
  if (body.success === true) {
    if (status === 'approved' || objectField(body, 'info') !== undefined) return 'approved';
    return status !== '' || PENDING_WORDS.test(message) ? 'pending' : 'approved';
  }
  if (PENDING_WORDS.test(message)) return 'pending';
  if (EXPIRED_WORDS.test(message)) return 'expired';
  return 'refused';
}

/** A wait that ends early, with InterruptedError, on Ctrl-C. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const RESUME_HINT = 'To wait again on the same session: kactl client magic-link wait';

export async function waitForMagicLink(ctx: Context, api: ClientApi, timeoutSeconds: number, code?: string): Promise<void> {
  const deadline = ctx.now() + timeoutSeconds * 1000;
  const left = (): string => formatCountdown((deadline - ctx.now()) / 1000);
  if (!ctx.io.isStderrTTY) ctx.output.note(`Waiting up to ${formatCountdown(timeoutSeconds)} for the link to be approved…`);
  let spinner = createSpinner(ctx.io, () => `Waiting for the link to be approved… ${left()} left (Ctrl-C to stop)`);
  let totp = code;
  let body: Record<string, unknown>;
  try {
    for (let delay = FIRST_DELAY_MS; ; delay = Math.min(MAX_DELAY_MS, delay * 1.5)) {
      body = await api.call('magicLinkCheck', { code: totp }, { acceptFailure: true });
      const state = magicState(body);
      if (state === 'approved') break;
      if (state === 'refused' && totp === undefined && CODE_REQUIRED.test(messageText(body))) {
        // Approved, but the account wants its second factor: the link stays unspent meanwhile.
        spinner.stop();
        totp = await askCodeAfterRefusal(ctx, new ApiFailure(messageText(body), body, 400));
        spinner = createSpinner(ctx.io, () => 'Logging in…');
        continue;
      }
      if (state === 'expired') throw new ApiFailure(messageText(body) || 'The magic link expired.', body, 400, { hints: ['Send a new one: kactl client magic-link --email EMAIL'] });
      if (state === 'refused') throw new ApiFailure(messageText(body) || 'The server refused the magic link check.', body, 400, { hints: [RESUME_HINT] });
      const remaining = deadline - ctx.now();
      if (remaining <= 0) {
        throw new KactlError(`The link was not approved within ${formatCountdown(timeoutSeconds)}; stopped waiting.`, 'FAILURE', { hints: [RESUME_HINT] });
      }
      await pause(Math.min(delay, remaining), ctx.signal);
    }
  } catch (error) {
    // Ctrl-C leaves the link and the session as a timeout does: say how to resume, the same way.
    if (error instanceof InterruptedError || ctx.signal.aborted) throw new InterruptedError('Interrupted; stopped waiting for the link.', { hints: [RESUME_HINT] });
    throw error;
  } finally {
    spinner.stop();
  }
  await markLoggedIn(ctx, body, undefined);
  await showUser(ctx, body, 'Logged in with the magic link.');
}
