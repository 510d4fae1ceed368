/**
 * `webhook` (docs/protocol/client-api.md §4.16): the sandbox makes the outbound request for the client and
 * hands back the remote body in `response`.
 *
 * URL = the stored base link + `params` (sanitized, URL-decoded once more, appended as is: the
 * client supplies `?`/`&`), which must stay under the base link (webhook-url.ts). A non-empty `body` (raw, not sanitized) makes it a POST; `conttype`
 * is its Content-Type; the User-Agent is the webhook's stored agent. The remote status is
 * ignored; a network failure (or an answer over 8 MiB) gives an empty `response`.
 */
import { findWebhook } from '../domain/webhooks.js';
import { because, fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';
import { phpUrlDecode, sendOutbound } from './outbound.js';
import { webhookTarget } from './webhook-url.js';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook Not Found.',
  /** Sandbox-only refusal: the params would send the call outside the seller's base link. */
  outsideBase: "Webhook params must stay under the webhook's base link.",
  done: 'Webhook request successful',
} as const;

/** Largest remote answer passed back; it travels inside a JSON string. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

const webhook = withSession(async (ctx, params) => {
  const webid = params.get('webid');
  const hook = webid === undefined ? undefined : findWebhook(ctx.store, ctx.app.id, webid);
  if (hook === undefined) return because(fail(WEBHOOK_MESSAGES.notFound), webid === undefined ? 'no webid was sent' : `the app has no webhook ${webid}`);
  if (hook.authed && !ctx.session.validated) return sessionUnauthed(ctx, `webhook ${hook.webid} needs a logged-in session`);

  const extra = params.get('params');
  const body = params.raw('body');
  const contentType = params.get('conttype');
  const post = body !== undefined && body !== '';
  const target = webhookTarget(hook.baselink, extra === undefined ? '' : phpUrlDecode(extra));
  if (target === undefined) return because(fail(WEBHOOK_MESSAGES.outsideBase), "the params would take the URL outside the webhook's base link");
  const result = await sendOutbound({
    url: target.href,
    method: post ? 'POST' : 'GET',
    headers: { 'user-agent': hook.useragent, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    body: post ? body : undefined,
    maxBytes: WEBHOOK_MAX_RESPONSE_BYTES,
    signal: ctx.signal,
  });
  if (!result.ok) ctx.log(`webhook ${hook.webid}: ${result.reason} (${result.detail})`);
  return ok(WEBHOOK_MESSAGES.done, { response: result.ok ? result.body.toString('utf8') : '' });
});

export const webhookHandlers: HandlerTable = { webhook };
