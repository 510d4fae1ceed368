/**
 * Opening a session and logging in (docs/protocol/client-api.md §4.1–§4.8): what a client calls
 * before anything else. A login on a known user only refreshes `lastlogin`, so a repeat after a
 * dropped connection doubles nothing: logins are reads. A register is not (the key is spent).
 */
import type { ClientOp } from './types.js';

const INFO = { fields: [{ name: 'info', kind: 'object' }] } as const;
const HWID = { wire: 'hwid', description: 'The machine\'s hardware id' } as const;
const PASS = { wire: 'pass', description: 'The user\'s password', secret: true } as const;
const TOTP_CODE = { wire: 'code', description: 'The 6-digit two-factor code, when the account has 2FA on', secret: true } as const;

export const LOGIN_OPS: readonly ClientOp[] = [
  {
    type: 'init',
    command: ['init'],
    api: '1.3',
    params: [
      { wire: 'ver', description: 'The app version this client runs; none skips the version check' },
      { wire: 'enckey', description: 'The client\'s half of the 1.2 session key', secret: true },
      { wire: 'hash', description: 'MD5 of the program file, when the app checks it' },
      { wire: 'token', description: 'The token file\'s text, when the app uses tokens', secret: true },
      { wire: 'thash', description: 'SHA-256 of the token file', secret: true },
    ],
    // Every init opens one more session: not a read.
    effect: 'write',
    success: { unchecked: 'Its `sessionid` is checked where the session is stored (ClientApi.openSession), with a sentence of its own.' },
    docs: { row: 1, section: '§4.1' },
  },
  {
    type: 'login',
    command: ['login'],
    api: '1.3',
    params: [
      { wire: 'username', description: 'The user\'s name' },
      PASS,
      HWID,
      TOTP_CODE,
      { wire: 'token', description: 'The web loader\'s token instead of the password', secret: true },
    ],
    effect: 'read',
    success: INFO,
    docs: { row: 2, section: '§4.2' },
  },
  {
    type: 'loginEmail',
    api: '1.3',
    onlyOn13: true,
    params: [{ wire: 'email', description: 'The user\'s email address' }, PASS, TOTP_CODE, HWID],
    effect: 'read',
    success: INFO,
    docs: { row: 3, section: '§4.3' },
  },
  {
    type: 'license',
    command: ['license'],
    api: '1.3',
    params: [{ wire: 'key', description: 'The license key', secret: true }, HWID, TOTP_CODE],
    // A fresh key registers, but a repeat then just logs in: no duplicate is possible.
    effect: 'read',
    success: INFO,
    docs: { row: 4, section: '§4.5' },
  },
  {
    type: 'register',
    command: ['register'],
    api: '1.3',
    params: [
      { wire: 'username', description: 'The new user\'s name' },
      PASS,
      { wire: 'key', description: 'The license key to redeem', secret: true },
      { wire: 'email', description: 'An email address for password resets (optional)' },
      HWID,
    ],
    effect: 'write',
    success: INFO,
    docs: { row: 5, section: '§4.4' },
  },
  {
    type: 'upgrade',
    command: ['upgrade'],
    api: '1.3',
    params: [
      { wire: 'username', description: 'The user whose subscription the key extends' },
      { wire: 'key', description: 'The license key to redeem', secret: true },
    ],
    effect: 'write',
    success: { unchecked: 'Only a message (§4.6); it logs nobody in.' },
    docs: { row: 6, section: '§4.6' },
  },
  {
    type: 'logout',
    command: ['logout'],
    api: '1.3',
    params: [],
    effect: 'write',
    success: { unchecked: 'Only a message (§4.7).' },
    docs: { row: 7, section: '§4.7' },
  },
  {
    type: 'check',
    command: ['check'],
    api: '1.3',
    params: [],
    effect: 'read',
    success: { unchecked: 'Only a message; the `role` some servers add is optional (§4.8).' },
    docs: { row: 8, section: '§4.8' },
  },
];
