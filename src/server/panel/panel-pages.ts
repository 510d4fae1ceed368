/**
 * The customer panel: `{panel_url}/panel/<owner>/<app>/`, the address init and fetchStats hand
 * out as `customerPanelLink`. An end user signs in (password, then the 2FA code when it is on),
 * sees their subscriptions and time left, resets their HWID once per cooldown (the user's own
 * cooldown when the seller set one, else the app's), downloads the app's files through the
 * panel (panel-download.ts), changes their password, and starts the web loader
 * (loader-page.ts). One who forgot the password asks for a reset link (panel-forgot.ts).
 *
 * Server-rendered forms that work without JavaScript. The session cookie is HttpOnly and
 * SameSite=Lax; every POST carries the session's form token; answers to POSTs redirect (303)
 * back to the panel so a reload never repeats an action.
 */
import { realNow } from '../domain/clock.js';
import { hashPassword, verifyPassword, verifyPasswordOrDummy } from '../domain/passwords.js';
import { newPasswordProblem } from '../domain/password-rules.js';
import { endPanelSignIn, startPanelSignIn } from '../domain/panel-sign-ins.js';
import { deleteSessionsOf } from '../domain/sessions.js';
import { findFile, listFiles } from '../domain/files.js';
import { FILE_MESSAGES } from '../client/file.js';
import { getUserById, findUser, resetUserHwid, setUserPassword } from '../domain/users.js';
import { listUserSubs } from '../domain/user-subs.js';
import { verifyTotp } from '../domain/twofa.js';
import { clearWrong2faCodes, recordWrong2faCode, twofaLockedFor, twofaLockedMessage } from '../domain/twofa-guesses.js';
import type { AppRow, UserRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { formatUtc, html, Html, renderPage } from '../client/page-layout.js';
import { ownValue } from '../../util/own.js';
import { anonymousSession, formTokenMatches, sessionOf, type PanelSession } from './panel-sessions.js';
import { alert, findPanelApp, panelNotFound, panelPath, signedInUser, tokenField, visitorSession, withCookie } from './panel-visitor.js';
import { forgotPage, forgotRequest } from './panel-forgot.js';
import { loaderPage } from './loader-page.js';
import { streamPanelFile } from './panel-download.js';

export const PANEL_MESSAGES = {
  badLogin: 'The username or password is wrong.',
  badCode: 'That code is not right. Type the 6 digits your authenticator shows now.',
  banned: 'This account is banned.',
  formToken: 'This form has expired. Load the page again and retry.',
  cooldown: (when: string) => `You can reset your HWID again after ${when}.`,
  hwidDone: 'Your HWID was reset. The next program you sign in with becomes your device.',
  passwordDone: 'Your password was changed.',
  passwordWrong: 'Your current password is wrong.',
  passwordMismatch: 'The two new passwords differ. Type the same password twice.',
  passwordMissing: 'Type your current password and the new one twice.',
  signInFirst: 'Sign in to the customer panel to download files.',
  tooManySignIns: (minutes: number) => `Too many wrong passwords for this username. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyPosts: 'Too many attempts from this address. Wait a minute and try again.',
} as const;

const NOTICES: Readonly<Record<string, string>> = { hwid: PANEL_MESSAGES.hwidDone, password: PANEL_MESSAGES.passwordDone };

/** The notice `?done=` names; own properties only (`?done=constructor` names nothing). */
function noticeFor(done: string | undefined): string | undefined {
  return done === undefined ? undefined : ownValue(NOTICES, done);
}


function redirect(app: AppRow, session: PanelSession, notice?: string): PageReply {
  const location = `${panelPath(app)}${notice === undefined ? '' : `?done=${notice}`}`;
  return withCookie({ status: 303, body: '', headers: { location, 'cache-control': 'no-store' } }, session, app);
}


function signInForm(app: AppRow, session: PanelSession, error?: string, status?: number): PageReply {
  return renderPage({
    title: `Sign in to ${app.name}`,
    status: status ?? (error === undefined ? 200 : 400),
    body: html`${alert(error)}<form method="post" action="${panelPath(app)}login">
${tokenField(session)}
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p><a href="${panelPath(app)}forgot">Forgot password?</a></p>`,
  });
}

function codeForm(app: AppRow, session: PanelSession, error?: string, status?: number): PageReply {
  return renderPage({
    title: 'Two-factor code',
    status: status ?? (error === undefined ? 200 : 400),
    body: html`${alert(error)}<p>Your account has two-factor authentication on.</p>
<form method="post" action="${panelPath(app)}2fa">
${tokenField(session)}
<label for="code">6-digit code from your authenticator</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<div class="actions"><button type="submit" class="primary">Continue</button></div>
</form>`,
  });
}

function timeLeft(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${minutes} min` : `${Math.max(1, minutes)} min`;
}

function resetCooldown(app: AppRow, user: UserRow): number {
  return user.cooldown ?? app.cooldown;
}

function dashboard(ctx: PageContext, app: AppRow, session: PanelSession, user: UserRow, options: { notice?: string; error?: string; status?: number } = {}): PageReply {
  const subs = listUserSubs(ctx.store, user.id);
  const subRows = subs.map((sub) => {
    const left = sub.paused ? `paused (${timeLeft(sub.expiry)} left)` : timeLeft(sub.expiry - ctx.now);
    const until = sub.paused ? '' : formatUtc(sub.expiry);
    return html`<tr><td>${sub.subscription}</td><td>${left}</td><td>${until}</td></tr>`;
  });
  const files = listFiles(ctx.store, app.id);
  // Served through the panel (signed-in users only); the stored URL itself is never shown.
  const fileItems = files.map((file) => html`<li><a href="${panelPath(app)}files/${encodeURIComponent(file.id)}" download>${file.name}</a> <span class="note">(${file.size})</span></li>`);
  const nextReset = user.hwidResetAt === null ? undefined : user.hwidResetAt + resetCooldown(app, user);
  const canReset = nextReset === undefined || nextReset <= ctx.now;
  const base = panelPath(app);
  return withCookie(
    renderPage({
      title: `${app.name} customer panel`,
      status: options.status ?? 200,
      body: html`${options.notice === undefined ? html`` : html`<p role="status">${options.notice}</p>`}${alert(options.error)}
<p>Signed in as <strong>${user.username}</strong>.</p>
<h2>Subscriptions</h2>
${subs.length === 0 ? html`<p>You have no subscriptions.</p>` : html`<table><caption class="note">Times in UTC</caption><thead><tr><th scope="col">Subscription</th><th scope="col">Time left</th><th scope="col">Expires</th></tr></thead><tbody>${new Html(subRows.map((row) => row.text).join(''))}</tbody></table>`}
<h2>Device (HWID)</h2>
<p>${user.hwid === null ? 'No device is locked to your account yet.' : 'Your account is locked to the device you signed in with.'}</p>
<form method="post" action="${base}hwid">
${tokenField(session)}
<div class="actions"><button type="submit"${canReset ? '' : ' disabled'}>Reset HWID</button></div>
${canReset || nextReset === undefined ? html`` : html`<p class="note">${PANEL_MESSAGES.cooldown(formatUtc(nextReset))}</p>`}
</form>
<h2>Downloads</h2>
${files.length === 0 ? html`<p>No files to download.</p>` : html`<ul>${new Html(fileItems.map((item) => item.text).join(''))}</ul>`}
<h2>Web loader</h2>
<p><a href="${base}loader">Open the web loader</a> to start the program from this page.</p>
<h2>Change password</h2>
<form method="post" action="${base}password">
${tokenField(session)}
<label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required>
<label for="confirm">New password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<div class="actions"><button type="submit">Change password</button></div>
</form>
<form method="post" action="${base}logout">
${tokenField(session)}
<div class="actions"><button type="submit">Sign out</button></div>
</form>`,
    }),
    session,
    app,
  );
}

function show(ctx: PageContext, params: Params): PageReply {
  const app = findPanelApp(ctx);
  if (app === undefined) return panelNotFound();
  const session = visitorSession(ctx, app);
  const user = signedInUser(ctx, session);
  if (user !== undefined) return dashboard(ctx, app, session, user, { notice: noticeFor(params.get('done')) });
  if (session.stage === 'needs-2fa') return withCookie(codeForm(app, session), session, app);
  return withCookie(signInForm(app, session), session, app);
}

/** `GET …/files/<id>`: one of the app's files, streamed to a signed-in user as an attachment. */
async function download(ctx: PageContext): Promise<PageReply> {
  const app = findPanelApp(ctx);
  if (app === undefined) return panelNotFound();
  const user = signedInUser(ctx, visitorSession(ctx, app));
  if (user === undefined) {
    return renderPage({ title: 'Sign in first', status: 403, body: html`<p role="alert">${PANEL_MESSAGES.signInFirst}</p><p><a href="${panelPath(app)}">Sign in</a></p>` });
  }
  const file = findFile(ctx.store, app.id, ctx.pathParams['file'] ?? '');
  if (file === undefined) return renderPage({ title: 'File not found', status: 404, body: html`<p role="alert">${FILE_MESSAGES.notFound}</p>` });
  return streamPanelFile(ctx, file);
}

type Action = (ctx: PageContext, params: Params, app: AppRow, session: PanelSession) => PageReply | Promise<PageReply>;

/** A POST: the app must exist, the client IP be under its limit, and the form token match the visitor's session. */
function post(action: Action): PageRoute['handle'] {
  return (ctx, params) => {
    const app = findPanelApp(ctx);
    if (app === undefined) return panelNotFound();
    const session = visitorSession(ctx, app);
    const limited = ctx.limits.hit('panelPost', ctx.ip);
    if (!limited.allowed) {
      const reply = renderPage({ title: 'Too many attempts', status: 429, body: html`<p role="alert">${PANEL_MESSAGES.tooManyPosts}</p><p><a href="${panelPath(app)}">Back to the panel</a></p>` });
      return withCookie({ ...reply, headers: { ...reply.headers, 'retry-after': String(limited.retryAfterSeconds) } }, session, app);
    }
    if (!formTokenMatches(session, params.get('form_token'))) {
      const reply = renderPage({ title: 'Form expired', status: 403, body: html`<p role="alert">${PANEL_MESSAGES.formToken}</p><p><a href="${panelPath(app)}">Back to the panel</a></p>` });
      return withCookie(reply, session, app);
    }
    return action(ctx, params, app, session);
  };
}

/**
 * Sign-in. Wrong passwords are counted per app and username, whether or not the user exists
 * (PAGE_LIMITS.panelWrongPassword); past the limit the username is refused before any password
 * is checked. An unknown username costs the same scrypt as a known one (verifyPasswordOrDummy),
 * so neither the answer, nor its time, nor the lock tells which usernames exist.
 */
const login: Action = async (ctx, params, app, session) => {
  const username = params.get('username') ?? '';
  const guessKey = `${app.id}\u0000${username}`;
  const locked = ctx.limits.peek('panelWrongPassword', guessKey);
  if (!locked.allowed) {
    const reply = signInForm(app, session, PANEL_MESSAGES.tooManySignIns(Math.ceil(locked.retryAfterSeconds / 60)), 429);
    return withCookie({ ...reply, headers: { ...reply.headers, 'retry-after': String(locked.retryAfterSeconds) } }, session, app);
  }
  const user = findUser(ctx.store, app.id, username);
  const fine = await verifyPasswordOrDummy(params.get('password') ?? '', user?.passwordHash);
  if (!fine || user === undefined) {
    ctx.limits.hit('panelWrongPassword', guessKey);
    return withCookie(signInForm(app, session, PANEL_MESSAGES.badLogin), session, app);
  }
  ctx.limits.forget('panelWrongPassword', guessKey);
  if (user.banned !== null) return withCookie(signInForm(app, session, PANEL_MESSAGES.banned), session, app);
  const stage = user.twofaEnabled && user.twofaSecret !== null ? 'needs-2fa' : 'signed-in';
  const signIn = startPanelSignIn(ctx.store, { appId: app.id, userId: user.id, stage, replaces: session.stage === 'anonymous' ? undefined : session.id }, ctx.now);
  return redirect(app, sessionOf(ctx.store, signIn));
};

/**
 * The 2FA code step. Wrong codes count against the user in the client API's own count
 * (domain/twofa-guesses.ts), so the panel and the API together allow MAX_WRONG_2FA_CODES guesses.
 * Codes are checked on real time: an authenticator app knows nothing of the sandbox's clock.
 */
const twofa: Action = (ctx, params, app, session) => {
  if (session.stage !== 'needs-2fa' || session.userId === undefined) return redirect(app, session);
  const user = getUserById(ctx.store, session.userId);
  if (user === undefined || user.twofaSecret === null) return redirect(app, session);
  const lockedFor = twofaLockedFor(ctx.store, user.id, ctx.now);
  if (lockedFor !== undefined) return withCookie(codeForm(app, session, twofaLockedMessage(lockedFor), 429), session, app);
  if (!verifyTotp(user.twofaSecret, (params.get('code') ?? '').replace(/\s/g, ''), realNow(ctx.store, ctx.now))) {
    recordWrong2faCode(ctx.store, user.id, ctx.now);
    return withCookie(codeForm(app, session, PANEL_MESSAGES.badCode), session, app);
  }
  clearWrong2faCodes(ctx.store, user.id);
  return redirect(app, sessionOf(ctx.store, startPanelSignIn(ctx.store, { appId: app.id, userId: user.id, stage: 'signed-in', replaces: session.id }, ctx.now)));
};

/** Actions only a signed-in user may take; others go back to the sign-in form. */
function signedIn(action: (ctx: PageContext, params: Params, app: AppRow, session: PanelSession, user: UserRow) => PageReply | Promise<PageReply>): Action {
  return (ctx, params, app, session) => {
    const user = signedInUser(ctx, session);
    return user === undefined ? redirect(app, session) : action(ctx, params, app, session, user);
  };
}

const hwid = signedIn((ctx, _params, app, session, user) => {
  const next = user.hwidResetAt === null ? ctx.now : user.hwidResetAt + resetCooldown(app, user);
  if (next > ctx.now) return dashboard(ctx, app, session, user, { error: PANEL_MESSAGES.cooldown(formatUtc(next)), status: 429 });
  ctx.store.tx(() => {
    resetUserHwid(ctx.store, user.id);
    ctx.store.run('UPDATE users SET hwidResetAt = ? WHERE id = ?', ctx.now, user.id);
  });
  return redirect(app, session, 'hwid');
});

const password = signedIn(async (ctx, params, app, session, user) => {
  const current = params.get('current');
  const next = params.get('password');
  const confirm = params.get('confirm');
  if (current === undefined || next === undefined || confirm === undefined) return dashboard(ctx, app, session, user, { error: PANEL_MESSAGES.passwordMissing, status: 400 });
  if (next !== confirm) return dashboard(ctx, app, session, user, { error: PANEL_MESSAGES.passwordMismatch, status: 400 });
  const problem = newPasswordProblem(ctx.store, app, next);
  if (problem !== undefined) return dashboard(ctx, app, session, user, { error: problem.message, status: 400 });
  if (user.passwordHash === null || !(await verifyPassword(current, user.passwordHash))) return dashboard(ctx, app, session, user, { error: PANEL_MESSAGES.passwordWrong, status: 400 });
  const hash = await hashPassword(next);
  // Whoever knew the old password is signed out everywhere: the program's sessions and every
  // panel sign-in, this one included; this browser gets a new sign-in.
  const signIn = ctx.store.tx(() => {
    setUserPassword(ctx.store, user.id, hash);
    deleteSessionsOf(ctx.store, app.id, user.username);
    return startPanelSignIn(ctx.store, { appId: app.id, userId: user.id, stage: 'signed-in' }, ctx.now);
  });
  return redirect(app, sessionOf(ctx.store, signIn), 'password');
});

const logout: Action = (ctx, _params, app, session) => {
  endPanelSignIn(ctx.store, session.id);
  return redirect(app, anonymousSession(ctx.store, app.id));
};

const BASE = '/panel/:owner/:app';

export const panelPages: readonly PageRoute[] = [
  { method: 'GET', path: BASE, handle: show },
  { method: 'POST', path: `${BASE}/login`, handle: post(login) },
  { method: 'POST', path: `${BASE}/2fa`, handle: post(twofa) },
  { method: 'POST', path: `${BASE}/hwid`, handle: post(hwid) },
  { method: 'POST', path: `${BASE}/password`, handle: post(password) },
  { method: 'POST', path: `${BASE}/logout`, handle: post(logout) },
  { method: 'GET', path: `${BASE}/forgot`, handle: forgotPage },
  { method: 'POST', path: `${BASE}/forgot`, handle: post(forgotRequest) },
  { method: 'GET', path: `${BASE}/loader`, handle: loaderPage },
  { method: 'GET', path: `${BASE}/files/:file`, handle: download },
];
