/**
 * Helpers for the seller API tests: a sandbox on 127.0.0.1:0 (the default, hosted status mode)
 * and assertions on the answer shapes docs/design.md fixes: 200 + success:true; a failure is
 * exactly `{"success":false,"message"}` with the hosted seller API's status (200 for most, 406
 * for an empty list or a lookup that found nothing, 404 / 403 for a refused key or app).
 * test/server/status-policy.test.ts holds the spec-strict mode (400).
 */
import { expect } from 'vitest';
import { startTestSandbox, type HttpResult, type ParamValues, type TestSandbox, type TestSandboxOptions } from '../../helpers/sandbox.js';

export type { HttpResult, TestSandbox };

/** A sandbox for seller tests, with the real client API beside it (cross-API checks use both). */
export function startSellerSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  return startTestSandbox(options);
}

/** 200, `success:true`, and the message when given. Returns the body. */
export function expectOk(res: HttpResult, message?: string): Record<string, unknown> {
  expect(res.status, res.text).toBe(200);
  expect(res.json?.success, res.text).toBe(true);
  if (message !== undefined) expect(res.json.message).toBe(message);
  return res.json as Record<string, unknown>;
}

/** Exactly `{"success":false,"message":message}` with `status` (most failures: 200, as the hosted seller API). */
export function expectFail(res: HttpResult, message: string, status = 200): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toEqual({ success: false, message });
}

/** A list with no rows, or a lookup that found nothing: the hosted seller API's 406 with the failure shape. */
export function expectEmptyList(res: HttpResult, message: string): void {
  expectFail(res, message, 406);
}

/** A seller call that must succeed; returns the body. */
export async function sellerOk(sb: TestSandbox, type: string, params: ParamValues = {}, message?: string): Promise<Record<string, unknown>> {
  return expectOk(await sb.seller(type, params), message);
}

/** Creates one key through the seller API (expiry in days, default 1) and returns it. */
export async function makeKey(sb: TestSandbox, params: ParamValues = {}): Promise<string> {
  const body = await sellerOk(sb, 'add', { expiry: '1', ...params });
  return body['key'] as string;
}

/** Creates a user through the seller API (`default` subscription, 1 day, password `pw`). */
export async function makeUser(sb: TestSandbox, user: string, params: ParamValues = {}): Promise<void> {
  await sellerOk(sb, 'adduser', { user, sub: 'default', expiry: '1', pass: 'pw', ...params }, 'Successfully created user!');
}

/** A client session logged in as `username` / `pass` (1.3); returns its id. */
export async function loginSession(sb: TestSandbox, username: string, pass = 'pw', hwid = 'HWID-0000000000000000001'): Promise<string> {
  const sessionid = await sb.init();
  const res = await sb.client('login', { sessionid, username, pass, hwid });
  expect(res.json?.success, res.text).toBe(true);
  return sessionid;
}
