/**
 * The key a 1.2 answer is signed with, for `emulate-secret`: the app secret for `init`,
 * `enckey-secret` after it (http/client-encoder.ts signs so). The fault stage sees the encoded
 * answer only, so the app and session are looked up again from the request, as the client
 * endpoint found them.
 */
import { findAppByNameAndOwnerid } from '../domain/apps.js';
import { domainNow } from '../domain/clock.js';
import { findLiveSession } from '../domain/sessions.js';
import type { Store } from '../store/store.js';

/** The key; null when the session has no enckey (the answer says `No encryption key supplied`); undefined when the app or session is unknown. */
export function answerHmacKey(store: Store, request: { readonly type: string | undefined; readonly param: (name: string) => string | undefined }, realMs: number): string | null | undefined {
  const name = request.param('name');
  const ownerid = request.param('ownerid');
  if (name === undefined || ownerid === undefined) return undefined;
  const app = findAppByNameAndOwnerid(store, name, ownerid);
  if (app === undefined) return undefined;
  if (request.type === 'init') return app.secret;
  const sessionid = request.param('sessionid');
  const session = sessionid === undefined ? undefined : findLiveSession(store, app.id, sessionid, domainNow(store, realMs));
  if (session === undefined) return undefined;
  return session.enckey === null ? null : `${session.enckey}-${app.secret}`;
}
