/**
 * `POST /sandbox/ui-code` with `Authorization: Bearer <adminToken>` (what `kactl sandbox ui`
 * calls): a one-time code that signs a browser in to the dashboard, and the link carrying it:
 *
 *   {"url":"http://127.0.0.1:8787/sandbox/ui/login?code=…","expiresIn":120}
 *
 * The admin token stays in the header: only the code, worth one sign-in within two minutes,
 * goes into a URL (ui/sign-in-codes.ts). The answer is never cached.
 */
import type { IncomingMessage } from 'node:http';
import type { Store } from '../store/store.js';
import { mintSignInCode, SIGN_IN_CODE_SECONDS } from '../ui/sign-in-codes.js';
import { UI_BASE } from '../ui/ui-sessions.js';
import { adminUnauthorized, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export interface UiCodeDeps {
  readonly store: Store;
  readonly adminToken: string;
  /** Real time, milliseconds since the epoch: codes expire on it, not on the sandbox clock. */
  readonly clock: () => number;
  readonly baseUrl: () => string;
}

export function serveUiCode(deps: UiCodeDeps, req: IncomingMessage): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  const code = mintSignInCode(deps.store, deps.clock());
  const url = `${deps.baseUrl()}${UI_BASE}/login?code=${code}`;
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: Buffer.from(asciiJson({ url, expiresIn: SIGN_IN_CODE_SECONDS })) };
}
