/**
 * Chat: `chatget` (docs/protocol/client-api.md §4.14) and `chatsend` (§4.15), over domain/chat.ts (channel
 * delays, mutes that run out on the domain clock, the last 50 messages per channel).
 *
 * `chatget` on an unknown channel succeeds with `"messages":[]`, as the source does (captured)
 * and as §4.14 describes it; both API versions answer so.
 */
import { getChatMessages, sendChatMessage } from '../domain/chat.js';
import { fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withValidatedSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';

export const CHAT_MESSAGES = {
  retrieved: 'Successfully retrieved chat messages',
  sent: 'Successfully sent chat message',
} as const;

const chatget = withValidatedSession((ctx, params) => {
  const channel = params.get('channel');
  const messages = channel === undefined ? [] : getChatMessages(ctx.store, ctx.app.id, channel);
  return ok(CHAT_MESSAGES.retrieved, { messages });
});

const chatsend = withValidatedSession((ctx, params) => {
  const author = ctx.session.credential;
  if (author === null) return sessionUnauthed(ctx);
  const result = sendChatMessage(ctx.store, ctx.app, { channel: params.get('channel'), author, message: params.get('message') }, ctx.now);
  return result.ok ? ok(CHAT_MESSAGES.sent) : fail(result.message);
});

export const chatHandlers: HandlerTable = { chatget, chatsend };
