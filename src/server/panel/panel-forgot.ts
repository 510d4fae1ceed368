/**
 * The customer panel's "Forgot password?" (linked under its sign-in form): `GET …/forgot` asks
 * for the username and the email the account was registered with; `POST …/forgot` asks for a
 * reset as the client API's `forgot` does (domain/password-resets.ts) and puts the same mail in
 * the sandbox's outbox, its link to the page where the new password is chosen
 * (client/reset-page.ts). The answer is the same whether or not the two match an account, so the
 * form tells no one which usernames or addresses exist.
 */
import { passwordResetMail, requestPasswordReset } from '../domain/password-resets.js';
import type { AppRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply } from '../http/pages.js';
import { html, renderPage } from '../client/page-layout.js';
import type { PanelSession } from './panel-sessions.js';
import { alert, findPanelApp, panelNotFound, panelPath, tokenField, visitorSession, withCookie } from './panel-visitor.js';

export const FORGOT_PAGE_MESSAGES = {
  missing: 'Type your username and the email address of your account.',
  asked: 'If that username has an account with that email address, a link to choose a new password is on its way. The link works for 24 hours.',
} as const;

function forgotForm(app: AppRow, session: PanelSession, error?: string): PageReply {
  return renderPage({
    title: 'Forgot your password?',
    status: error === undefined ? 200 : 400,
    mail: 'sent',
    body: html`${alert(error)}<p>Type your username and the email address you registered with: a link to choose a new password goes to that address.</p>
<form method="post" action="${panelPath(app)}forgot">
${tokenField(session)}
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<div class="actions"><button type="submit" class="primary">Send the link</button></div>
</form>
<p><a href="${panelPath(app)}">Back to sign-in</a></p>`,
  });
}

/** `GET …/forgot`. */
export function forgotPage(ctx: PageContext): PageReply {
  const app = findPanelApp(ctx);
  if (app === undefined) return panelNotFound();
  const session = visitorSession(ctx, app);
  return withCookie(forgotForm(app, session), session, app);
}

/** `POST …/forgot` (the panel's form token and attempt limit checked by the caller). */
export function forgotRequest(ctx: PageContext, params: Params, app: AppRow, session: PanelSession): PageReply {
  const username = params.get('username')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  if (username === '' || email === '') return withCookie(forgotForm(app, session, FORGOT_PAGE_MESSAGES.missing), session, app);
  const reset = requestPasswordReset(ctx.store, app.id, { username, email }, ctx.now);
  if (reset.ok) ctx.outbox.send({ ...passwordResetMail(reset.value, app.name, email, ctx.baseUrl), appId: app.id });
  const page = renderPage({
    title: 'Check your email',
    mail: 'sent',
    body: html`<p role="status">${FORGOT_PAGE_MESSAGES.asked}</p><p><a href="${panelPath(app)}">Back to sign-in</a></p>`,
  });
  return withCookie(page, session, app);
}
