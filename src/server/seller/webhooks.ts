/**
 * Webhooks (docs/protocol/seller-api.md §3.11): hidden base URLs the client `webhook` call appends its
 * parameters to. The full URL is never returned; lists show its first 21 characters.
 */
import { createWebhook, deleteAllWebhooks, deleteWebhook, listWebhooks } from '../domain/webhooks.js';
import type { Params } from '../dispatch/params.js';
import { fail } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkFetchableUrl } from './url-rules.js';
import { checkedParams } from './checked-params.js';

/** E's `short_baselink`: enough of the URL to recognise it, not enough to call it. */
const SHORT_LINK_LENGTH = 21;

function fetchallwebhooks(ctx: HandlerContext): Reply {
  const rows = listWebhooks(ctx.store, ctx.app.id).map((w) => ({
    webid: w.webid,
    short_baselink: w.baselink.slice(0, SHORT_LINK_LENGTH),
    useragent: w.useragent,
    // E's `app` is the app secret; the name says which app without leaking it.
    app: ctx.app.name,
    authed: String(w.authed),
  }));
  return listReply(ctx, 'Successfully retrieved all webhooks', rows);
}

/** `addwebhook`. A loopback URL is allowed in the sandbox (url-rules.ts); a taken `webid` is the failure. */
function addwebhook(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addwebhook', { required: ['baseurl', 'authed'], optional: ['ua', 'webid'], flags: ['authed'] });
  const baseurl = p.baseurl;
  const checked = checkFetchableUrl(baseurl);
  if ('problem' in checked) {
    return fail(checked.problem === 'local' ? "URL can't be a local path! Must be a remote URL accessible by the open internet!" : "URL isn't a valid URL!");
  }
  const created = createWebhook(ctx.store, ctx.app.id, {
    baselink: baseurl,
    webid: p.webid,
    useragent: p.ua,
    authed: p.authed,
  });
  return either(created !== undefined, 'Successfully added webhook!', 'Failed to add webhook!');
}

/** Not in E; the bots send `webid`. The messages follow the group's (unconfirmed by any source). */
function delwebhook(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delwebhook', { required: ['webid'] });
  return either(deleteWebhook(ctx.store, ctx.app.id, p.webid), 'Successfully deleted webhook!', 'Failed to delete webhook!');
}

function delallwebhooks(ctx: HandlerContext): Reply {
  return either(deleteAllWebhooks(ctx.store, ctx.app.id) > 0, 'Successfully deleted all webhooks!', 'Failed to find any webhooks!');
}

export const webhookHandlers: HandlerTable = { fetchallwebhooks, addwebhook, delwebhook, delallwebhooks };
