/**
 * The client API's handlers (1.3 and 1.2 share them), one table per area file. To add an area:
 * write `src/server/client/<area>.ts` exporting `<area>Handlers: HandlerTable`, then add one
 * line below.
 */
import type { HandlerTable } from '../dispatch/types.js';
import { accountHandlers } from './account.js';
import { authHandlers } from './auth.js';
import { banHandlers } from './bans.js';
import { chatHandlers } from './chat.js';
import { emailCodeHandlers } from './email-code.js';
import { fileHandlers } from './file.js';
import { logHandlers } from './log.js';
import { magicLinkHandlers } from './magic-link.js';
import { sessionHandlers } from './session.js';
import { statsHandlers } from './stats.js';
import { twofaHandlers } from './twofa.js';
import { varHandlers } from './vars.js';
import { webhookHandlers } from './webhook.js';

export const clientHandlers: HandlerTable = {
  ...sessionHandlers,
  ...authHandlers,
  ...twofaHandlers,
  ...magicLinkHandlers,
  ...emailCodeHandlers,
  ...varHandlers,
  ...chatHandlers,
  ...webhookHandlers,
  ...fileHandlers,
  ...logHandlers,
  ...banHandlers,
  ...accountHandlers,
  ...statsHandlers,
};
