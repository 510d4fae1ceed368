/**
 * The faults the sandbox injects into its answers (faults/), for testers and tests (`kactl
 * sandbox fault …`, a flows `fault:` step). Every call wants `Authorization: Bearer <adminToken>`.
 *
 *   GET  /sandbox/faults                      → {"faults":[<fault>…]}
 *   POST /sandbox/faults  kind=… [arg=…] [type=a,b] [api=1.3,1.2] [user=…] [times=N | rate=P]
 *                                             → {"fault":<fault>}
 *   POST /sandbox/faults  clear=all | clear=<id>  → {"cleared":<n>,"faults":[…]}
 *
 * A fault is `{"id","kind","arg","types","apis","user","times","rate","fired"}` (null where not
 * given). Held in memory: a restarted sandbox has none. A fault is checked whole before it is
 * held (faults/checked-spec.ts): its kind and argument, its APIs, and each type against the API
 * catalogs, so one that could never fire is refused with the nearest name.
 */
import type { IncomingMessage } from 'node:http';
import type { Params } from '../dispatch/params.js';
import type { Fault, FaultBook } from '../faults/book.js';
import { checkFaultInput } from '../faults/checked-spec.js';
import type { FaultInput } from '../faults/spec.js';
import { adminUnauthorized, isAdmin } from './admin-auth.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { plainError } from './error-shapes.js';
import { asciiJson } from './json-encode.js';

export interface FaultsDeps {
  readonly book: FaultBook;
  readonly adminToken: string;
}

/** A fault as the route sends it. */
export function faultJson(fault: Fault): Record<string, unknown> {
  return {
    id: fault.id,
    kind: fault.kind,
    arg: fault.arg ?? null,
    types: fault.types ?? null,
    apis: fault.apis ?? null,
    user: fault.user ?? null,
    times: fault.times ?? null,
    rate: fault.rate ?? null,
    fired: fault.fired,
  };
}

/** A fault's fields as a form sends them (the admin route's and the dashboard's): empty means not given. */
export function faultInputOf(params: Params): FaultInput {
  return {
    kind: params.get('kind'),
    arg: params.get('arg'),
    type: params.get('type'),
    api: params.get('api'),
    user: params.get('user'),
    times: params.get('times'),
    rate: params.get('rate'),
  };
}

function ok(body: unknown): EncodedResponse {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: Buffer.from(asciiJson(body)) };
}

export function serveFaults(deps: FaultsDeps, req: IncomingMessage, params: Params): EncodedResponse {
  if (!isAdmin(req, deps.adminToken)) return adminUnauthorized();
  const { book } = deps;
  if (req.method !== 'POST') return ok({ faults: book.list().map(faultJson) });
  const clear = params.get('clear')?.trim();
  if (clear !== undefined) {
    if (clear === 'all') return ok({ cleared: book.clear(), faults: [] });
    const id = /^\d{1,9}$/.test(clear) ? Number(clear) : NaN;
    if (Number.isNaN(id)) return plainError(400, `clear takes a fault id or all; got "${clear.slice(0, 40)}"`);
    const cleared = book.clear(id);
    if (cleared === 0) return plainError(400, `No fault has id ${id}; the sandbox holds ${book.size === 0 ? 'none' : `those with id ${book.list().map((fault) => fault.id).join(', ')}`}`);
    return ok({ cleared, faults: book.list().map(faultJson) });
  }
  const spec = checkFaultInput(faultInputOf(params));
  if ('error' in spec) return plainError(400, spec.error);
  return ok({ fault: faultJson(book.add(spec)) });
}
