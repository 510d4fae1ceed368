/**
 * The client API's handlers (1.3 and 1.2 share them), one table per area file. To add an area:
 * write `src/server/client/<area>.ts` exporting `<area>Handlers: HandlerTable`, then add one
 * line below.
 */
import type { HandlerTable } from '../dispatch/types.js';
import { sessionHandlers } from './session.js';

export const clientHandlers: HandlerTable = {
  ...sessionHandlers,
};
