/**
 * A rate-limited answer in the hosted mode (`--failure-status 200`, the default), as the genuine
 * server sends it: HTTP 200, a bare unsigned `{"success":false,"message":…}` and no Retry-After.
 * Used for the 1.2 client API and the seller API; 1.3 keeps a signed 429, which is what the 1.3
 * SDKs react to (docs/design.md, "Rate limiting"). A script that copes with the sandbox's rate
 * limit in this mode copes with the hosted one too. The spec-strict mode answers 429 + Retry-After.
 */
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export function genuineRateLimited(message: string): EncodedResponse {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson({ success: false, message })) };
}
