/**
 * Values a client command needs from the user: the flag if given, else a prompt on a terminal
 * (passwords hidden), else exit 2 at once naming the flag. Loaded by the commands' actions,
 * never at start-up.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readStdinText, valueOrAsk } from '../../io/ask.js';
import { SIX_DIGITS } from './options.js';
import type { PasswordFlags } from './options.js';

export async function askPassword(ctx: Context, flags: PasswordFlags): Promise<string> {
  if (flags.password !== undefined && flags.passwordStdin) throw new UsageError('Give --password or --password-stdin, not both.');
  if (flags.passwordStdin) return readStdinText(ctx, '--password-stdin');
  return valueOrAsk(ctx, { value: flags.password, flag: '--password', label: 'Password', secret: true, alternative: '--password-stdin' });
}

export interface TextQuestion {
  value: string | undefined;
  flag: string;
  label: string;
  alternative?: string;
}

export function askText(ctx: Context, question: TextQuestion): Promise<string> {
  return valueOrAsk(ctx, {
    value: question.value,
    flag: question.flag,
    label: question.label,
    ...(question.alternative === undefined ? {} : { alternative: question.alternative }),
  });
}

/** A 6-digit TOTP code: the flag's (already checked by its parser), else a prompt. */
export function askTotpCode(ctx: Context, value: string | undefined, label = '6-digit code from the authenticator app'): Promise<string> {
  return valueOrAsk(ctx, {
    value,
    flag: '--code',
    label,
    validate: (entered) => (SIX_DIGITS.test(entered.replace(/\s+/g, '')) ? true : 'Type the 6 digits the app shows.'),
  }).then((code) => code.replace(/\s+/g, ''));
}
