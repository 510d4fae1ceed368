/**
 * Arranging client-API scenarios over real HTTP: keys made in the store, users made through
 * the real `register` handler, and the values the captures in docs/protocol/observed-peers.md used.
 */
import { expect } from 'vitest';
import { generateLicenses } from '../../../src/server/domain/licenses.js';
import { totpCode } from '../../../src/server/domain/twofa.js';
import type { TestSandbox } from '../../helpers/sandbox.js';

/** Long enough for the default minHwid (20). */
export const HWID = 'HWID-0123456789abcdef-linux';
export const OTHER_HWID = 'HWID-fedcba9876543210-linux';
export const SESSION_NOT_FOUND = 'Session not found. If you get this frequently, ask the developer to use the latest example code';

/** New unused keys (default: one, a day, level 1, or a fixed `mask` such as `REFKEY-AAAAAA-BBBBBB`). */
export function newKeys(sb: TestSandbox, options: { amount?: number; expires?: number; level?: string; mask?: string; now?: number } = {}): string[] {
  const made = generateLicenses(sb.store, sb.app().id, { amount: options.amount ?? 1, expires: options.expires ?? 86_400, level: options.level ?? '1', mask: options.mask }, options.now ?? Math.floor(Date.now() / 1000));
  if (!made.ok) throw new Error(made.message);
  return made.value;
}

export function newKey(sb: TestSandbox, options: Parameters<typeof newKeys>[1] = {}): string {
  const [key] = newKeys(sb, { ...options, amount: 1 });
  if (key === undefined) throw new Error('no key made');
  return key;
}

export interface Registered {
  /** The session the register validated. */
  readonly sid: string;
  readonly key: string;
  readonly username: string;
  readonly pass: string;
}

/** init + register (1.3) that must succeed: a user with a day of `default`, logged in on `sid`. */
export async function registerUser(sb: TestSandbox, options: { username?: string; pass?: string; email?: string; hwid?: string } = {}): Promise<Registered> {
  const username = options.username ?? 'alice';
  const pass = options.pass ?? 'correct horse';
  const key = newKey(sb);
  const sid = await sb.init();
  const res = await sb.client('register', { sessionid: sid, username, pass, key, email: options.email, hwid: options.hwid ?? HWID });
  expect(res.json, res.text).toMatchObject({ success: true });
  return { sid, key, username, pass };
}

/** A fresh session logged in as `username` with `pass` (HWID as registered). */
export async function loginSession(sb: TestSandbox, username: string, pass: string, extra: Record<string, string | undefined> = {}): Promise<string> {
  const sid = await sb.init();
  const res = await sb.client('login', { sessionid: sid, username, pass, hwid: HWID, ...extra });
  expect(res.json, res.text).toMatchObject({ success: true });
  return sid;
}

/** The 1.2 HMAC key after init with `enckey`. */
export function hmacKey(sb: TestSandbox, enckey: string): string {
  return `${enckey}-${sb.info.app.secret}`;
}

/** A 1.2 session opened with `enckey` (its answers are signed with `hmacKey`). */
export async function init12(sb: TestSandbox, enckey = 'clientenckey0001'): Promise<string> {
  return sb.init({ enckey }, { api: '1.2', method: 'POST' });
}

/** The body with its random nonce replaced by `N`, for byte-level comparisons. */
export function withoutNonce(text: string): string {
  return text.replace(/"nonce":"[^"]*"/, '"nonce":"N"');
}

/** Turns 2FA on for the session's user (both `2faenable` calls); returns the secret. */
export async function enable2fa(sb: TestSandbox, sid: string, nowSeconds: number): Promise<string> {
  const first = await sb.client('2faenable', { sessionid: sid });
  const secret = first.json['2fa'].secret_code as string;
  const second = await sb.client('2faenable', { sessionid: sid, code: totpCode(secret, nowSeconds) });
  expect(second.json).toMatchObject({ success: true, message: '2fa successfully activated' });
  return secret;
}

/** A code that is valid at no step within ±1 of now. */
export function wrongCode(secret: string, nowSeconds: number): string {
  const near = new Set([-1, 0, 1].map((step) => totpCode(secret, nowSeconds + step * 30)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}
