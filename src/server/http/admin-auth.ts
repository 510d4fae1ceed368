/**
 * The sandbox's admin routes (`/sandbox/outbox`, `/sandbox/clock`) want
 * `Authorization: Bearer <adminToken>`; anything else is a 401 in the spec's error shape.
 */
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export const ADMIN_UNAUTHORIZED_MESSAGE = 'Missing or wrong admin token: send Authorization: Bearer <adminToken>';

/** Whether the request carries the admin token (constant-time compare). */
export function isAdmin(req: IncomingMessage, adminToken: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const given = Buffer.from(match?.[1] ?? '');
  const expected = Buffer.from(adminToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function adminUnauthorized(): EncodedResponse {
  return {
    status: 401,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'www-authenticate': 'Bearer realm="kactl-sandbox"' },
    body: Buffer.from(asciiJson({ success: false, message: ADMIN_UNAUTHORIZED_MESSAGE })),
  };
}
