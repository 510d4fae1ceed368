/**
 * A rate-limited answer under `--failure-status 200`, as the genuine server sends it: HTTP 200,
 * a bare unsigned `{"success":false,"message":…}` (no `code`, `ownerid` or signature headers on
 * 1.3 either) and no Retry-After. A script that copes with the sandbox's rate limit in this mode
 * copes with the hosted one too. The default mode keeps 429 + Retry-After.
 */
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export function genuineRateLimited(message: string): EncodedResponse {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson({ success: false, message })) };
}
