/**
 * `GET /sandbox/outbox` with `Authorization: Bearer <adminToken>`: the outbox as a JSON array,
 * oldest first. Optional query filters: `after` (id), `to` (address), `kind`.
 */
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { listOutbox } from '../domain/outbox.js';
import type { Params } from '../dispatch/params.js';
import type { Store } from '../store/store.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export const OUTBOX_UNAUTHORIZED_MESSAGE = 'Missing or wrong admin token: send Authorization: Bearer <adminToken>';

function authorized(req: IncomingMessage, adminToken: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const given = Buffer.from(match?.[1] ?? '');
  const expected = Buffer.from(adminToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function serveOutbox(req: IncomingMessage, params: Params, store: Store, adminToken: string): EncodedResponse {
  if (!authorized(req, adminToken)) {
    return {
      status: 401,
      headers: { 'content-type': JSON_CONTENT_TYPE, 'www-authenticate': 'Bearer realm="kactl-sandbox"' },
      body: Buffer.from(asciiJson({ success: false, message: OUTBOX_UNAUTHORIZED_MESSAGE })),
    };
  }
  const after = Number(params.get('after') ?? '0');
  const messages = listOutbox(store, {
    after: Number.isFinite(after) ? after : 0,
    to: params.get('to'),
    kind: params.get('kind'),
  });
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson(messages)) };
}
