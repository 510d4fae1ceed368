/**
 * The seller API's handlers, one table per area file. To add an area: write
 * `src/server/seller/<area>.ts` exporting `<area>Handlers: HandlerTable`, then add it to AREAS.
 * The endpoint has already resolved the app from `sellerkey` (ctx.app) and applied the rate limit.
 *
 * Every handler runs behind the catalog's parameter check (params.ts), and every spelling the
 * catalog records for a type (`delallbuttons` / `delAllButtons`) reaches the same handler.
 * test/server/seller-registry.test.ts fails if a catalog type has no handler.
 */
import { SELLER_CATALOG } from '../../api/seller-catalog/index.js';
import type { Handler, HandlerTable } from '../dispatch/types.js';
import { appHandlers } from './app.js';
import { blacklistHandlers } from './blacklists.js';
import { chatHandlers } from './chats.js';
import { fileHandlers } from './files.js';
import { licenseHandlers } from './licenses.js';
import { loaderHandlers } from './loader.js';
import { logHandlers } from './logs.js';
import { checkSellerParams } from './params.js';
import { sessionHandlers } from './sessions.js';
import { subHandlers } from './subs.js';
import { teamHandlers } from './team.js';
import { userAccountHandlers } from './user-account.js';
import { userSubHandlers } from './user-subs.js';
import { userHandlers } from './users.js';
import { userVarHandlers } from './uservars.js';
import { varHandlers } from './vars.js';
import { webhookHandlers } from './webhooks.js';
import { whitelistHandlers } from './whitelists.js';

const AREAS: readonly HandlerTable[] = [
  appHandlers,
  licenseHandlers,
  userHandlers,
  userAccountHandlers,
  userSubHandlers,
  subHandlers,
  userVarHandlers,
  varHandlers,
  sessionHandlers,
  fileHandlers,
  webhookHandlers,
  chatHandlers,
  blacklistHandlers,
  whitelistHandlers,
  loaderHandlers,
  logHandlers,
  teamHandlers,
];

/** `handler` behind the catalog's parameter check for `type`. */
function checked(type: string, handler: Handler): Handler {
  return (ctx, params) => {
    const check = checkSellerParams(type, params);
    return 'reply' in check ? check.reply : handler(ctx, check.params);
  };
}

function buildTable(): HandlerTable {
  const table: Record<string, Handler> = {};
  for (const area of AREAS) {
    for (const [type, handler] of Object.entries(area)) {
      if (Object.hasOwn(table, type)) throw new Error(`Seller type ${type} has two handlers`);
      table[type] = checked(type, handler);
    }
  }
  for (const op of SELLER_CATALOG) {
    const handler = table[op.type];
    if (handler === undefined) continue;
    for (const alias of op.typeAliases ?? []) table[alias] = handler;
  }
  return table;
}

export const sellerHandlers: HandlerTable = buildTable();
