/**
 * What a user does to their own account once a session exists (docs/protocol/client-api.md
 * §4.9, §4.10, §4.21–§4.27): bans, renames, password resets, two-factor, and the two ways of
 * logging in by email (magic links and one-time codes, names kactl gives, docs/design.md "Names
 * the spec does not give").
 */
import type { ClientOp } from './types.js';

const HWID = { wire: 'hwid', description: 'The machine\'s hardware id' } as const;
const EMAIL = { wire: 'email', description: 'The user\'s email address' } as const;
const TOTP_CODE = { wire: 'code', description: 'The 6-digit code from the authenticator app', secret: true } as const;
const MESSAGE_ONLY = { unchecked: 'Only a message.' } as const;

export const ACCOUNT_OPS: readonly ClientOp[] = [
  {
    type: 'checkblacklist',
    command: ['blacklist', 'check'],
    api: '1.3',
    params: [HWID],
    effect: 'read',
    // Inverted: success:true means "blacklisted", with only a message. The command calls it with
    // acceptFailure and reads the flag itself (src/commands/client/blacklist.ts).
    success: { unchecked: 'Inverted (§4.9): `success` itself is the answer, with only a message.' },
    docs: { row: 9, section: '§4.9' },
  },
  {
    type: 'ban',
    command: ['ban'],
    api: '1.3',
    params: [{ wire: 'reason', description: 'Why, stored as the ban reason' }, HWID],
    effect: 'write',
    success: MESSAGE_ONLY,
    docs: { row: 10, section: '§4.10' },
  },
  {
    type: 'changeUsername',
    command: ['change-username'],
    api: '1.3',
    params: [{ wire: 'newUsername', description: 'The new name' }],
    effect: 'write',
    success: { unchecked: 'Only a message; the session ends (§4.21).' },
    docs: { row: 21, section: '§4.21' },
  },
  {
    type: 'forgot',
    command: ['forgot'],
    api: '1.3',
    params: [{ wire: 'username', description: 'The user\'s name' }, EMAIL],
    // Each call mails another reset link.
    effect: 'write',
    success: MESSAGE_ONLY,
    docs: { row: 22, section: '§4.22' },
  },
  {
    type: '2faenable',
    command: ['2fa', 'enable'],
    api: '1.3',
    params: [{ ...TOTP_CODE, description: 'The 6-digit code that confirms the new secret; absent on the first call' }],
    effect: 'write',
    success: { unchecked: 'The first call answers a `2fa` object and no message, the second only a message: src/commands/client/two-factor-enable.ts reads each.' },
    quirks: { refusalAsSuccess: /^(Invalid code|2fa session has expired)/i },
    docs: { row: 23, section: '§4.23' },
  },
  {
    type: '2fadisable',
    command: ['2fa', 'disable'],
    api: '1.3',
    params: [TOTP_CODE],
    effect: 'write',
    success: MESSAGE_ONLY,
    quirks: { refusalAsSuccess: /^Invalid code/i },
    docs: { row: 24, section: '§4.24' },
  },
  {
    type: 'magicLinkSend',
    command: ['magic-link'],
    api: '1.3',
    params: [EMAIL, HWID],
    effect: 'write',
    success: MESSAGE_ONLY,
    docs: { row: 25, section: '§4.27' },
  },
  {
    type: 'magicLinkCheck',
    command: ['magic-link', 'wait'],
    api: '1.3',
    params: [{ ...TOTP_CODE, description: 'The 6-digit two-factor code, when the account has 2FA on' }],
    effect: 'read',
    success: { unchecked: 'A pending link may be a success without `info`, which src/commands/client/magic-wait.ts reads as "not yet".' },
    docs: { row: 26, section: '§4.27' },
  },
  {
    type: 'emailCodeSend',
    command: ['email-code', 'send'],
    api: '1.3',
    params: [EMAIL, HWID],
    effect: 'write',
    success: MESSAGE_ONLY,
    docs: { row: 27, section: '§4.25' },
  },
  {
    type: 'emailCodeVerify',
    command: ['email-code', 'verify'],
    api: '1.3',
    params: [
      EMAIL,
      { wire: 'code', description: 'The 6-digit code the email carried', secret: true },
      HWID,
      { wire: 'totp', description: 'The two-factor code, when the account has 2FA on (`code` is taken)', secret: true },
    ],
    // A code works once: a repeat would be refused, not doubled, but it is no read either.
    effect: 'write',
    success: { fields: [{ name: 'info', kind: 'object' }] },
    docs: { row: 28, section: '§4.25' },
  },
];
