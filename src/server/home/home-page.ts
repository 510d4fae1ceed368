/**
 * `GET /`: the address `sandbox start` prints, opened in a browser. A person gets a small page
 * that says what this server is (a kactl sandbox: its applications, plain HTTP or HTTPS), where
 * its APIs are, and links to what a browser can open; everyone else (an SDK, curl, a probe like
 * `kactl doctor`) gets the answer every unknown path gets, `404 {"success":false,"message":"Not
 * found"}`, unchanged. Only a request whose Accept names HTML (as a browser's navigation does)
 * gets the page.
 *
 * No secret is on the page: no seller key, app secret or admin token, only what a program's
 * source holds anyway (app name, ownerid, version) and the public signing key.
 *
 * What the page lists beside the APIs and the customer panel is `SANDBOX_PLACES`: a route people
 * open (a dashboard, a log) adds its line there, and test/server/home-page.test.ts checks that
 * every listed path is served, so the page never links to something that does not exist.
 */
import { listApps } from '../domain/apps.js';
import type { AppRow } from '../domain/rows.js';
import { html, Html, renderPage } from '../client/page-layout.js';
import { JSON_CONTENT_TYPE } from '../http/encoded-response.js';
import { MESSAGES } from '../http/input-error.js';
import { asciiJson } from '../http/json-encode.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { panelPath } from '../panel/panel-visitor.js';

/** One thing the home page lists: a page to open, or an admin route and the command that reads it. */
export interface SandboxPlace {
  readonly path: string;
  readonly title: string;
  /** What is there, after the title and a colon: lower case, ending with a full stop. */
  readonly about: string;
  /** An admin route (Bearer admin token): shown with the kactl command that reads it, not linked. */
  readonly admin?: { readonly command: string };
  /** A page behind a sign-in: linked, with the kactl command that signs a browser in. */
  readonly signIn?: { readonly command: string };
}

export const SANDBOX_PLACES: readonly SandboxPlace[] = [
  {
    path: '/sandbox/ui',
    title: 'Dashboard',
    about: 'the app, its licenses, users, sessions, variables, chat, files, outbox, requests and clock, in a browser.',
    signIn: { command: 'kactl sandbox ui' },
  },
  {
    path: '/sandbox/outbox',
    title: 'Outbox',
    about: 'the email the sandbox would have sent (magic links, one-time codes, password resets).',
    admin: { command: 'kactl sandbox outbox' },
  },
  {
    path: '/sandbox/clock',
    title: 'Clock',
    about: 'the domain clock and how far it runs from real time; a POST moves it.',
    admin: { command: 'kactl sandbox clock' },
  },
];

const API_PATHS: readonly { readonly path: string; readonly about: string }[] = [
  { path: '/api/1.3/', about: 'Client API 1.3, what current SDKs call; answers are signed with the sandbox\'s Ed25519 key.' },
  { path: '/api/1.2/', about: 'Client API 1.2, the older encrypted one.' },
  { path: '/api/seller/', about: 'Seller API; every call needs the seller key (kactl sends the profile\'s).' },
];

/** At most this many applications are listed; a store rarely holds more than the seeded one. */
const MAX_APPS = 20;

/** Whether the request asks for HTML: a media range text/html or application/xhtml+xml with q > 0 (`*\/*` alone is not asking). */
export function acceptsHtml(accept: string | readonly string[] | undefined): boolean {
  const header = typeof accept === 'string' ? accept : (accept ?? []).join(',');
  return header.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/html' && type !== 'application/xhtml+xml') return false;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The answer of every path the sandbox has no route for (http/server.ts), for clients that did not ask for HTML. */
function notFound(): PageReply {
  return { status: 404, contentType: JSON_CONTENT_TYPE, body: asciiJson({ success: false, message: MESSAGES.notFound }), headers: { vary: 'Accept' } };
}

function appRows(apps: readonly AppRow[]): Html {
  const shown = apps.slice(0, MAX_APPS);
  const rows = shown.map(
    (app) => html`<tr><td>${app.name}</td><td><code>${app.ownerid}</code></td><td>${app.ver}</td><td><a href="${panelPath(app)}">Customer panel</a></td></tr>`,
  );
  const more = apps.length > shown.length ? html`<p class="note">And ${apps.length - shown.length} more (kactl app details names them).</p>` : html``;
  return html`<table>
<caption>Applications</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Ownerid</th><th scope="col">Version</th><th scope="col">Panel</th></tr></thead>
<tbody>${new Html(rows.map((row) => row.text).join('\n'))}</tbody>
</table>
${more}`;
}

function placeItem(place: SandboxPlace): Html {
  if (place.signIn !== undefined) return html`<li><a href="${place.path}">${place.title}</a>: ${place.about} Sign in with <code>${place.signIn.command}</code>.</li>`;
  if (place.admin === undefined) return html`<li><a href="${place.path}">${place.title}</a>: ${place.about}</li>`;
  return html`<li>${place.title}, <code>${place.path}</code>: ${place.about} Read it with <code>${place.admin.command}</code>.</li>`;
}

/** The open pages as links, then the admin routes with the one sentence on their token. */
function placeLists(places: readonly SandboxPlace[]): Html {
  const pages = places.filter((place) => place.admin === undefined);
  const admin = places.filter((place) => place.admin !== undefined);
  const list = (items: readonly SandboxPlace[]): Html => new Html(items.map((place) => placeItem(place).text).join('\n'));
  const pagesPart = pages.length === 0 ? html`` : html`<h2>Pages</h2>\n<ul>\n${list(pages)}\n</ul>\n`;
  const adminPart =
    admin.length === 0
      ? html``
      : html`<h2>Admin routes</h2>
<p>These answer JSON, and only to a request that carries the sandbox's admin token (<code>Authorization: Bearer …</code>). This page does not show the token: the kactl command beside each route reads it for you.</p>
<ul>
${list(admin)}
</ul>`;
  return html`${pagesPart}${adminPart}`;
}

function transport(baseUrl: string): Html {
  return baseUrl.startsWith('https:')
    ? html`HTTPS, with a certificate signed by this data folder's own authority: a program must trust it (<code>kactl sandbox ca --help</code> says how).`
    : html`Plain HTTP (<code>kactl sandbox start --tls</code> serves HTTPS).`;
}

function homePage(ctx: PageContext): PageReply {
  const apps = listApps(ctx.store);
  const apis = API_PATHS.map((api) => html`<tr><td><code>${api.path}</code></td><td>${api.about}</td></tr>`);
  const body = html`<p>A <strong>kactl sandbox</strong>: a local server that answers as a KeyAuth-style licensing service does, for testing programs and seller tools without touching a real one.</p>
<dl>
<dt>Base URL</dt><dd><code>${ctx.baseUrl}</code></dd>
<dt>Transport</dt><dd>${transport(ctx.baseUrl)}</dd>
</dl>
${appRows(apps)}
<h2>APIs</h2>
<table>
<thead><tr><th scope="col">Path</th><th scope="col">What</th></tr></thead>
<tbody>${new Html(apis.map((row) => row.text).join('\n'))}</tbody>
</table>
<p class="note"><code>kactl sandbox connect &lt;sdk&gt;</code> prints the lines to change in your program (URL, public key, app).</p>
${placeLists(SANDBOX_PLACES)}`;
  const reply = renderPage({ title: 'About this server', body });
  return { ...reply, headers: { ...reply.headers, vary: 'Accept' } };
}

function home(ctx: PageContext): PageReply {
  return ctx.request.method === 'GET' && acceptsHtml(ctx.request.headers.accept) ? homePage(ctx) : notFound();
}

/**
 * POST is routed too, and always answered as before: an SDK pointed at the bare base URL posts
 * there and must keep getting "Not found" (not "Method not allowed"), whatever its body.
 */
export const homePages: readonly PageRoute[] = [
  { method: 'GET', path: '/', handle: home },
  { method: 'POST', path: '/', acceptsJson: true, handle: home },
];
