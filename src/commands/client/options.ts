/**
 * Flags several client commands share, defined once so they read the same everywhere:
 * `--hwid`, `--code`, the password pair, and the wait `--timeout` of the magic link.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { parseDurationSeconds } from '../global-options.js';

/** A TOTP code as authenticator apps show it (docs/protocol/client-api.md §4.26). */
export const SIX_DIGITS = /^\d{6}$/;

export function parseTotpCode(raw: string): string {
  const code = raw.replace(/\s+/g, '');
  if (!SIX_DIGITS.test(code)) throw new InvalidArgumentError('A 2FA code is the 6 digits the authenticator app shows.');
  return code;
}

export function hwidOption(): Option {
  return new Option('--hwid <hwid>', "HWID to send (default: the profile's, else this machine's identifier; '' sends none)");
}

export function totpCodeOption(description = '6-digit code from the authenticator app, when the account has 2FA on', flags = '--code <code>'): Option {
  return new Option(flags, description).argParser(parseTotpCode);
}

/** `--password` (visible in shell history) and `--password-stdin`; without either, a hidden prompt. */
export function addPasswordOptions(command: Command): Command {
  return command
    .option('--password <password>', 'the password (visible in shell history: prefer --password-stdin or the prompt)')
    .option('--password-stdin', 'read the password from stdin');
}

export interface PasswordFlags {
  password?: string;
  passwordStdin?: boolean;
}

/** Default wait: the link's own lifetime (spec §8: 15 minutes). */
export const DEFAULT_WAIT = '15m';
export const DEFAULT_WAIT_SECONDS = 15 * 60;

/**
 * How long the magic link is waited for. Its own flag: `--timeout` is the request timeout
 * everywhere, and one flag means one thing.
 */
export function waitTimeoutOption(): Option {
  return new Option('--wait-timeout <duration>', `how long to wait for approval, e.g. 90s or 15m (default ${DEFAULT_WAIT})`).argParser(parseDurationSeconds);
}
