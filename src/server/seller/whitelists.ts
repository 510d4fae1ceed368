/** Whitelists (docs/protocol/seller-api.md §3.13): IPs exempt from the VPN block. No type lists them. */
import { addWhitelist, deleteAllWhitelists, deleteWhitelist } from '../domain/blacklists.js';
import type { Params } from '../dispatch/params.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either } from './answers.js';
import { checkedParams } from './checked-params.js';

/** An IP already on the list is the failure (nothing was added). */
function addWhite(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addWhite', { required: ['ip'] });
  return either(addWhitelist(ctx.store, ctx.app.id, p.ip), 'Successfully added whitelist!', 'Failed to add whitelist!');
}

function delWhite(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delWhite', { required: ['ip'] });
  return either(deleteWhitelist(ctx.store, ctx.app.id, p.ip), 'Successfully deleted whitelist!', 'Failed to delete whitelist!');
}

/**
 * Not in E (bots send `delallwhites` and `delAllWhites`; both are answered, see index.ts). The
 * messages are unknown; these follow the group's other sentences.
 */
function delallwhites(ctx: HandlerContext): Reply {
  return either(deleteAllWhitelists(ctx.store, ctx.app.id) > 0, 'Successfully deleted all whitelists!', 'Failed to delete all whitelists!');
}

export const whitelistHandlers: HandlerTable = { addWhite, delWhite, delallwhites };
