/**
 * `log` (docs/protocol/client-api.md §4.18): a line from the client program (`message` ≤ 275 characters,
 * `pcuser` the machine's user name), kept for the seller with the session's credential.
 *
 * /api/1.2/ answers as the source: an empty, unsigned body whatever happens. /api/1.3/ answers
 * signed JSON (`{"success":true,"code":68,"message":"Log sent",…}`), since the official C++
 * SDKs refuse an unsigned reply or one under 32 bytes; its refusals say why the line was dropped.
 *
 * When the app has a Discord webhook, the line is also posted there as the source's embed. The
 * source then skips storing it; the sandbox stores it anyway so the seller API's log list stays
 * complete for testers.
 */
import { addLog, LOG_MESSAGE_MAX, LOG_PCUSER_MAX, TESTER_LOG_CAP } from '../domain/logs.js';
import { fail, ok } from '../dispatch/reply.js';
import { withSession, type SessionContext } from '../dispatch/session-guard.js';
import type { HandlerTable, Reply } from '../dispatch/types.js';
import { sendOutbound } from './outbound.js';

export const LOG_MESSAGES = {
  sent: 'Log sent',
  blank: 'No log message provided',
  tooLong: `Log message must be ${LOG_MESSAGE_MAX} characters or less`,
  capped: `Log not kept: tester accounts keep at most ${TESTER_LOG_CAP} logs`,
} as const;

/** The 1.2 answer: no body, no signature. */
const EMPTY_UNSIGNED: Reply = { success: true, fields: {}, text: '', unsigned: true };

const log = withSession(async (ctx, params) => {
  const answer = (reply: Reply): Reply => (ctx.api === '1.2' ? EMPTY_UNSIGNED : reply);
  const message = params.get('message');
  if (message === undefined) return answer(fail(LOG_MESSAGES.blank));
  if (message.length > LOG_MESSAGE_MAX) return answer(fail(LOG_MESSAGES.tooLong));
  const pcuser = params.get('pcuser')?.slice(0, LOG_PCUSER_MAX) ?? null;
  const credential = ctx.session.credential;
  if (ctx.app.webhook !== null && ctx.app.webhook !== '') await postToDiscord(ctx, ctx.app.webhook, { message, credential, pcuser });
  const kept = addLog(ctx.store, ctx.app.id, { logdata: message, credential, pcuser }, ctx.now);
  return answer(kept ? ok(LOG_MESSAGES.sent) : fail(LOG_MESSAGES.capped));
});

/** The source's embed: title, colour 0x00ffe1, credential / PC name / client IP fields. */
async function postToDiscord(ctx: SessionContext, url: string, line: { message: string; credential: string | null; pcuser: string | null }): Promise<void> {
  const embed = {
    embeds: [
      {
        title: `📜 Log: ${line.message}`,
        color: 0x00ffe1,
        fields: [
          { name: '🔐 Credential:', value: line.credential ?? 'N/A' },
          { name: '💻 PC Name:', value: line.pcuser ?? 'N/A' },
          { name: '🌎 Client IP:', value: ctx.ip },
        ],
      },
    ],
  };
  const result = await sendOutbound({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'KeyAuth' },
    body: JSON.stringify(embed),
    maxBytes: 64 * 1024,
    signal: ctx.signal,
  });
  if (!result.ok) ctx.log(`log webhook: ${result.reason} (${result.detail})`);
}

export const logHandlers: HandlerTable = { log };
