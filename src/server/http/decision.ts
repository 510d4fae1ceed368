/**
 * What the request inspector learns of an API answer (exchange.ts `Decision`): the reply's
 * success, message and reason, and the end user it was about. A user named after a license
 * key (`license` users are) is a secret: it is shown masked and kept out of the whole record.
 */
import type { Params } from '../dispatch/params.js';
import type { Reply } from '../dispatch/types.js';
import { isLicenseName, shownUser } from '../domain/shown.js';
import type { Store } from '../store/store.js';
import type { Decision } from './exchange.js';

/** A reply's decision; `user` as given (already fit to show) unless the reply names one. */
export function replyDecision(reply: Reply, user?: Pick<Decision, 'user' | 'hidden'>): Decision {
  const message = reply.fields['message'];
  return {
    success: reply.success,
    message: typeof message === 'string' ? message : reply.text,
    reason: reply.reason,
    user: reply.user ?? user?.user,
    hidden: user?.hidden,
  };
}

/**
 * The end user of a request to an app: the session's (client), else the `username` or `user`
 * parameter. Undefined when the request names none.
 */
export function requestUser(store: Store, appId: number, sessionUser: string | null | undefined, params: Params): Pick<Decision, 'user' | 'hidden'> | undefined {
  const name = sessionUser ?? params.get('username') ?? params.get('user');
  if (name === undefined) return undefined;
  if (!isLicenseName(store, appId, name)) return { user: name };
  return { user: shownUser(store, appId, name), hidden: [name] };
}
