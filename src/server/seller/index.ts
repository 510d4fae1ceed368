/**
 * The seller API's handlers, one table per area file. To add an area: write
 * `src/server/seller/<area>.ts` exporting `<area>Handlers: HandlerTable`, then add one line below.
 * The endpoint has already resolved the app from `sellerkey` (ctx.app) and applied the rate limit.
 */
import type { HandlerTable } from '../dispatch/types.js';

export const sellerHandlers: HandlerTable = {};
