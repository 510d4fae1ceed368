/**
 * `GET /sandbox/outbox` with `Authorization: Bearer <adminToken>`: the outbox as a JSON array,
 * oldest first. Optional query filters: `after` (id), `to` (address), `kind`.
 */
import type { IncomingMessage } from 'node:http';
import { listOutbox } from '../domain/outbox.js';
import type { Params } from '../dispatch/params.js';
import type { Store } from '../store/store.js';
import { adminUnauthorized, ADMIN_UNAUTHORIZED_MESSAGE, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { asciiJson } from './json-encode.js';

export const OUTBOX_UNAUTHORIZED_MESSAGE = ADMIN_UNAUTHORIZED_MESSAGE;

/** What the outbox route reads. */
export interface OutboxDeps {
  readonly store: Store;
  readonly adminToken: string;
}

export function serveOutbox(deps: OutboxDeps, req: IncomingMessage, params: Params): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  const after = Number(params.get('after') ?? '0');
  const messages = listOutbox(deps.store, {
    after: Number.isFinite(after) ? after : 0,
    to: params.get('to'),
    kind: params.get('kind'),
  });
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: Buffer.from(asciiJson(messages)) };
}
