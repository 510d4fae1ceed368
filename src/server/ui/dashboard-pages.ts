/**
 * The dashboard's routes under `/sandbox/ui`, made from the list of views (views.ts):
 *
 *   GET  /sandbox/ui/login?code=…       spends a one-time sign-in code (sign-in-codes.ts), sets the
 *                                       cookie, redirects (303) to /sandbox/ui: the code leaves the URL
 *   POST /sandbox/ui/login (code=…)     the same, posted by the private page `kactl sandbox ui` opens
 *                                       (the code never in an address); answers a page that sets the
 *                                       cookie and goes on to /sandbox/ui itself (below)
 *   POST /sandbox/ui/logout             ends the sign-in
 *   GET  /sandbox/ui[/<view>]           a view, signed in only
 *   POST /sandbox/ui/<view>/<action>    a view's form: signed in and carrying the form token, else
 *                                       refused (403); redirects (303) back to the view with a notice
 *   GET  /sandbox/ui/requests/live      the request inspector's live records (server-sent events)
 *
 * The views' GETs are not recorded by the request inspector (the tester's own visits would
 * crowd out the program's requests); the sign-in, sign-out and every form post are.
 *
 * Without the cookie every page answers 401 with a page saying how to sign in (never a redirect
 * that could carry a code). Sign-ins and codes run on real time (`deps.clock`), not the sandbox
 * clock the tester moves.
 */
import { listApps } from '../domain/apps.js';
import type { AppRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import { html, renderPage } from '../client/page-layout.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { renderDashboard, viewPath, type NavEntry } from './layout.js';
import { redeemSignInCode } from './sign-in-codes.js';
import { clearedUiCookie, endUiSignIn, formTokenOk, leaveNotice, startUiSignIn, takeNotice, UI_BASE, uiCookie, uiSessionOf, type UiSession } from './ui-sessions.js';
import type { DashboardDeps, DashboardView, ViewAction, ViewContext } from './view.js';
import { DASHBOARD_VIEWS } from './views.js';
import { LIVE_PATH, requestFilter } from './views/requests.js';

export const UI_MESSAGES = {
  signIn: 'Sign in with kactl sandbox ui: it prints (or opens) a link that signs this browser in.',
  badCode: 'This sign-in link was already used or has expired (a link works once, for two minutes). Run kactl sandbox ui again.',
  tooManyCodes: 'Too many sign-in links from this address were wrong, used or expired. Wait ten minutes, then run kactl sandbox ui again.',
  formToken: 'This form has expired or did not come from the dashboard. Load the page again and retry.',
  noApp: 'The sandbox has no application.',
} as const;

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } as const;

function refused(status: number, title: string, text: string): PageReply {
  return renderPage({ title, status, body: html`<p>${text}</p>` });
}

function redirect(location: string, cookie?: string): PageReply {
  return { status: 303, body: '', headers: { location, ...NO_STORE, ...(cookie === undefined ? {} : { 'set-cookie': cookie }) } };
}

/** The sandbox's application (the first, the one `sandbox start` seeded). */
function dashboardApp(page: PageContext): AppRow | undefined {
  return listApps(page.store)[0];
}

function signedIn(deps: DashboardDeps, page: PageContext): UiSession | undefined {
  return uiSessionOf(page.store, page.request.headers['cookie'], deps.clock());
}

/** Runs `then` for a signed-in browser with the app; else the page that says why not. */
function withSignIn(deps: DashboardDeps, page: PageContext, params: Params, then: (ctx: ViewContext) => PageReply | Promise<PageReply>): PageReply | Promise<PageReply> {
  const session = signedIn(deps, page);
  if (session === undefined) return refused(401, 'Sign in to the sandbox dashboard', UI_MESSAGES.signIn);
  const app = dashboardApp(page);
  if (app === undefined) return refused(404, 'No application', UI_MESSAGES.noApp);
  return then({ page, deps, app, session, params });
}

function showView(nav: readonly NavEntry[], view: DashboardView, ctx: ViewContext): PageReply {
  const shown = view.show(ctx);
  return renderDashboard({
    nav,
    current: view,
    appName: ctx.app.name,
    session: ctx.session,
    notice: takeNotice(ctx.page.store, ctx.session),
    body: shown.body,
    script: shown.script,
  });
}

async function runAction(view: DashboardView, action: ViewAction, ctx: ViewContext): Promise<PageReply> {
  if (!formTokenOk(ctx.session, ctx.params.raw('form_token'))) return refused(403, 'Form refused', UI_MESSAGES.formToken);
  leaveNotice(ctx.page.store, ctx.session, await action.run(ctx));
  return redirect(viewPath(view.id));
}

/**
 * Spends the code; undefined when it was no good. Misses are counted per client IP, and past
 * PAGE_LIMITS.uiCodeMiss every code from that address is refused (429) until the window ends:
 * codes are 192 random bits, but guessing must still meet a wall.
 */
function spendCode(deps: DashboardDeps, page: PageContext, params: Params): { session: UiSession } | { refusal: PageReply } {
  const locked = page.limits.peek('uiCodeMiss', page.ip);
  if (!locked.allowed) {
    const reply = refused(429, 'Too many sign-in attempts', UI_MESSAGES.tooManyCodes);
    return { refusal: { ...reply, headers: { ...reply.headers, 'retry-after': String(locked.retryAfterSeconds) } } };
  }
  if (!redeemSignInCode(page.store, params.raw('code'), deps.clock())) {
    page.limits.hit('uiCodeMiss', page.ip);
    return { refusal: refused(401, 'Sign-in link refused', UI_MESSAGES.badCode) };
  }
  return { session: startUiSignIn(page.store, deps.clock()) };
}

function login(deps: DashboardDeps, page: PageContext, params: Params): PageReply {
  const spent = spendCode(deps, page, params);
  if ('refusal' in spent) return spent.refusal;
  return redirect(UI_BASE, uiCookie(spent.session, deps.secure));
}

/**
 * The posted sign-in. The post comes from a page of no site (a file), so a redirect would carry
 * on that cross-site navigation and the browser would leave the SameSite=Strict cookie out of
 * it; a page of our own that moves on (Refresh) makes the next request come from the sandbox.
 */
function postedLogin(deps: DashboardDeps, page: PageContext, params: Params): PageReply {
  const spent = spendCode(deps, page, params);
  if ('refusal' in spent) return spent.refusal;
  const signedIn = renderPage({ title: 'Signed in', body: html`<p>You are signed in to the sandbox dashboard. <a href="${UI_BASE}">Open the dashboard</a>.</p>` });
  return { ...signedIn, headers: { ...signedIn.headers, refresh: `0; url=${UI_BASE}`, 'set-cookie': uiCookie(spent.session, deps.secure) } };
}

function logout(deps: DashboardDeps, page: PageContext, params: Params): PageReply {
  const session = signedIn(deps, page);
  if (session === undefined) return redirect(UI_BASE, clearedUiCookie(deps.secure));
  if (!formTokenOk(session, params.raw('form_token'))) return refused(403, 'Form refused', UI_MESSAGES.formToken);
  endUiSignIn(page.store, session);
  const signedOut = refused(200, 'Signed out', 'You are signed out of the sandbox dashboard. Run kactl sandbox ui to sign in again.');
  return { ...signedOut, headers: { ...signedOut.headers, 'set-cookie': clearedUiCookie(deps.secure) } };
}

/** The live records, as the admin route's follower sends them. */
function live(ctx: ViewContext): PageReply {
  const { recorder } = ctx.deps;
  const { filter } = requestFilter(ctx.params);
  const after = /^\d{1,15}$/.test(ctx.params.raw('after') ?? '') ? Number(ctx.params.raw('after')) : undefined;
  if (!recorder.mayFollow) return { status: 503, contentType: 'text/plain; charset=utf-8', body: 'Too many readers follow the request log already; close another dashboard tab or kactl sandbox logs --follow.', headers: { ...NO_STORE, 'retry-after': '10' } };
  const backlog = after === undefined ? [] : recorder.list(filter, { limit: 500, after });
  const follower = recorder.follow(filter, backlog);
  if (!recorder.recording) follower.end('the request inspector is off (sandbox start --log-limit 0)');
  return {
    contentType: 'text/event-stream; charset=utf-8',
    body: '',
    headers: { ...NO_STORE, 'x-accel-buffering': 'no', connection: 'close' },
    stream: follower.stream,
  };
}

export function dashboardPages(deps: DashboardDeps): PageRoute[] {
  const nav: NavEntry[] = DASHBOARD_VIEWS.map(({ id, label }) => ({ id, label }));
  const routes: PageRoute[] = [
    { method: 'GET', path: `${UI_BASE}/login`, handle: (page, params) => login(deps, page, params) },
    { method: 'POST', path: `${UI_BASE}/login`, handle: (page, params) => postedLogin(deps, page, params) },
    { method: 'POST', path: `${UI_BASE}/logout`, handle: (page, params) => logout(deps, page, params) },
    { method: 'GET', path: LIVE_PATH, unrecorded: true, handle: (page, params) => withSignIn(deps, page, params, (ctx) => live(ctx)) },
  ];
  for (const view of DASHBOARD_VIEWS) {
    routes.push({ method: 'GET', path: viewPath(view.id), unrecorded: true, handle: (page, params) => withSignIn(deps, page, params, (ctx) => showView(nav, view, ctx)) });
    for (const action of view.actions ?? []) {
      routes.push({ method: 'POST', path: `${viewPath(view.id)}/${action.name}`, handle: (page, params) => withSignIn(deps, page, params, (ctx) => runAction(view, action, ctx)) });
    }
  }
  return routes;
}
