/** Checks on profile values, shared by `profile add` and anything else that stores them. */
import { InvalidArgumentError } from 'commander';

/** Profile names become keys in the config file and words in commands: keep them simple. */
const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export { parseBaseUrl } from '../../config/base-url.js';

export function parsePublicKey(raw: string): string {
  const hex = raw.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new InvalidArgumentError('An Ed25519 public key is 64 hex characters.');
  return hex;
}

export function parsePositiveInt(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new InvalidArgumentError('Give a whole number.');
  return Number(raw);
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME_PATTERN.test(name)) {
    throw new InvalidArgumentError('Profile names are letters, digits, ".", "_" and "-", starting with a letter or digit (64 at most).');
  }
  return name;
}
