/**
 * The dashboard's page: a header with the navigation (from the list of views), the view's
 * heading, the notice its last action left, and the view's body. Every value goes through
 * `html` (client/page-layout.ts), which escapes it.
 *
 * Headers: never cached, never framed, no Referer, and a policy that allows only this
 * response's own style and script, by nonce: no inline handler, style attribute or outside
 * resource runs, even if a value got past the escaping. A script may connect only to the
 * sandbox itself (the live request inspector).
 */
import { randomBytes } from 'node:crypto';
import { documentHead, html, Html, joinHtml, PAGE_HEADERS } from '../client/page-layout.js';
import type { PageReply } from '../http/pages.js';
import type { Notice, UiSession } from './ui-sessions.js';
import { UI_BASE } from './ui-sessions.js';

/** An entry of the navigation. */
export interface NavEntry {
  readonly id: string;
  readonly label: string;
}

export function viewPath(id: string): string {
  return id === '' ? UI_BASE : `${UI_BASE}/${id}`;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.45; }
  body { margin: 0; }
  header { padding: 0.75rem 1rem; border-bottom: 1px solid GrayText; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; }
  header .brand { font-weight: 700; }
  nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 0.9rem; }
  nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
  header form { margin-left: auto; }
  main { padding: 1rem; max-width: 80rem; }
  h1 { font-size: 1.4rem; margin: 0.5rem 0 1rem; }
  h2 { font-size: 1.1rem; margin-top: 1.75rem; }
  .note { color: GrayText; font-size: 0.9rem; }
  .scroll { overflow-x: auto; }
  .when { white-space: nowrap; }
  table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
  th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid GrayText; overflow-wrap: break-word; }
  td ul { margin: 0; padding-left: 1.1rem; }
  td form { display: inline-flex; gap: 0.3rem; margin: 0 0.3rem 0.2rem 0; }
  code, pre { font-family: ui-monospace, monospace; font-size: 0.88rem; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  form.inline-fields { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0.5rem 0 1rem; }
  form.inline-fields label { display: flex; flex-direction: column; font-weight: 600; font-size: 0.9rem; }
  input, select, button { font: inherit; }
  input, select { padding: 0.3rem 0.4rem; }
  button { padding: 0.3rem 0.8rem; border-radius: 0.3rem; border: 1px solid ButtonBorder; cursor: pointer; }
  button.primary { background: #1a56db; border-color: #1a56db; color: #fff; }
  a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  [role="status"], [role="alert"] { padding: 0.5rem 0.75rem; margin: 0 0 1rem; border-left: 4px solid #16a34a; }
  [role="alert"] { border-left-color: #dc2626; }
  .pager { display: flex; gap: 1rem; align-items: center; margin: 0.75rem 0; flex-wrap: wrap; }
  .live { font-size: 0.9rem; }
`;

export interface DashboardPage {
  readonly nav: readonly NavEntry[];
  /** The view shown (its navigation entry is marked current). */
  readonly current: NavEntry;
  readonly appName: string;
  readonly session: UiSession;
  readonly notice?: Notice | undefined;
  readonly body: Html;
  readonly script?: string | undefined;
  readonly status?: number;
}

/** A view inside the dashboard's frame, with its headers. */
export function renderDashboard(page: DashboardPage): PageReply {
  const nonce = randomBytes(16).toString('base64');
  const links = page.nav.map((entry) => {
    const current = entry.id === page.current.id ? html` aria-current="page"` : html``;
    return html`<li><a href="${viewPath(entry.id)}"${current}>${entry.label}</a></li>`;
  });
  const text = html`${documentHead(`${page.current.label} · ${page.appName} · kactl sandbox`, html`<style nonce="${nonce}">${new Html(STYLE)}</style>`)}
<body>
<header>
<span class="brand">kactl sandbox · ${page.appName}</span>
<nav aria-label="Dashboard"><ul>${joinHtml(links)}</ul></nav>
${postForm(page.session, `${UI_BASE}/logout`, html``, 'Sign out')}
</header>
<main>
<h1>${page.current.label}</h1>
${noticeHtml(page.notice)}${page.body}
</main>
${page.script === undefined ? html`` : html`<script nonce="${nonce}">${new Html(page.script)}</script>`}
</body>
</html>
`;
  return { status: page.status ?? 200, body: text.text, headers: { ...PAGE_HEADERS, 'content-security-policy': dashboardPolicy(nonce) } };
}

export function dashboardPolicy(nonce: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

function noticeHtml(notice: Notice | undefined): Html {
  if (notice === undefined) return html``;
  return notice.ok ? html`<p role="status">${notice.text}</p>` : html`<p role="alert">${notice.text}</p>`;
}

/** A POST form carrying the sign-in's form token; `fields` go before the button. */
export function postForm(session: UiSession, action: string, fields: Html, button: string, options: { className?: string; primary?: boolean } = {}): Html {
  const className = options.className === undefined ? html`` : html` class="${options.className}"`;
  const buttonClass = options.primary === true ? html` class="primary"` : html``;
  return html`<form method="post" action="${action}"${className}><input type="hidden" name="form_token" value="${session.formToken}">${fields}<button type="submit"${buttonClass}>${button}</button></form>`;
}

/** A table with its header row; scrolls sideways on a narrow screen. */
export function table(caption: string, headers: readonly string[], rows: readonly Html[], options: { bodyId?: string } = {}): Html {
  const heads = headers.map((header) => html`<th scope="col">${header}</th>`);
  const bodyId = options.bodyId === undefined ? html`` : html` id="${options.bodyId}"`;
  return html`<div class="scroll"><table><caption class="note">${caption}</caption><thead><tr>${joinHtml(heads)}</tr></thead><tbody${bodyId}>${joinHtml(rows)}</tbody></table></div>`;
}

/** A table cell of a time or a duration (`2026-01-01 00:15 UTC`, `12 ms`): kept on one line. */
export function whenCell(text: string): Html {
  return html`<td class="when">${text}</td>`;
}

/** `yes` / `no` for a stored flag. */
export function yesNo(flag: number | boolean): string {
  return flag ? 'yes' : 'no';
}

/** A count with thousands separators: 100,000. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
