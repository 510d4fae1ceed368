/**
 * Parameters that several groups declare the same way. Sharing them keeps one spelling for one
 * meaning: the wire `user` is always `<username>` / `--username`, `authed` is always
 * `--require-login`, a password is always `--password` and secret.
 */
import type { ParamSpec } from './types.js';

/** The end user an operation acts on, as the positional `<username>`. */
export function usernameArg(wire: string, description = 'Username of the end user'): ParamSpec {
  return { wire, flag: 'username', positional: true, type: 'string', required: true, description, completeFrom: 'fetchallusernames' };
}

/** A new or target end user given as `--username` (creates, assignments). */
export function usernameFlag(wire: string, description: string): ParamSpec {
  return { wire, flag: 'username', type: 'string', required: true, description };
}

/** A password: secret, so it is masked in --verbose and may be read from a hidden prompt. */
export function passwordFlag(wire: string, required: boolean, description: string): ParamSpec {
  return { wire, flag: 'password', type: 'string', required, secret: true, description };
}

/**
 * `authed`: 1 = only logged-in users may use the record, 0 = anyone. The server requires it
 * (E answers a missing value with its "Authed paramater must be 1 … or 0" message), so the CLI
 * sends 0 when the flag is absent.
 */
export const REQUIRE_LOGIN: ParamSpec = {
  wire: 'authed',
  flag: 'require-login',
  type: 'bool01',
  required: true,
  description: 'Only logged-in users may use it (sends authed=1; absent sends 0)',
};

/** `userToo` on license ban and delete: also act on the user who redeemed the key. */
export function userTooFlag(action: 'ban' | 'delete'): ParamSpec {
  return {
    wire: 'userToo',
    flag: 'user-too',
    type: 'bool01',
    required: false,
    serverDefault: '0',
    description: `Also ${action} the user who redeemed the key`,
  };
}
