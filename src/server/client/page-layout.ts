/**
 * The sandbox's small HTML pages (magic-link approval, password reset): one accessible layout,
 * no JavaScript, no outside resources. Every value put into a page goes through `escapeHtml`.
 *
 * Headers: the pages carry secrets in their URLs and act on a button press, so they are never
 * cached, never framed (no clickjacking of the approve button), never leak the URL as a
 * Referer, and may load nothing but their own inline style.
 */
import type { PageReply } from '../http/pages.js';

/** Headers every sandbox page carries (the dashboard's pages add their own policy with a nonce). */
export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
}

export function html(strings: TemplateStringsArray, ...values: readonly (string | number | Html)[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const piece = value instanceof Html ? value.text : escapeHtml(typeof value === 'number' ? String(value) : value);
    out += piece + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Pieces of a page made one by one (table rows, list items), as one. */
export function joinHtml(pieces: readonly Html[], separator = ''): Html {
  return new Html(pieces.map((piece) => piece.text).join(separator));
}

/**
 * `2026-01-01 00:15 UTC`: the sandbox's own time zone never shows in a page. A time past what a
 * Date can hold (a store written before expiries were capped) is said so instead of failing the page.
 */
export function formatUtc(unix: number): string {
  const date = new Date(unix * 1000);
  if (Number.isNaN(date.getTime())) return unix > 0 ? 'never (too far ahead to show)' : 'unknown';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; padding: 2rem 1rem; }
  main { max-width: 32rem; margin: 0 auto; }
  h1 { font-size: 1.5rem; margin-top: 0; }
  .note { color: GrayText; font-size: 0.9rem; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.4rem; border: 1px solid ButtonBorder; cursor: pointer; }
  button.primary { background: #1a56db; border-color: #1a56db; color: #fff; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { font: inherit; width: 100%; box-sizing: border-box; padding: 0.5rem; margin-top: 0.25rem; }
  [role="alert"] { border-left: 4px solid #dc2626; padding: 0.5rem 0.75rem; margin: 1rem 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  dt { font-weight: 600; }
  h2 { font-size: 1.15rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid GrayText; }
  caption { text-align: left; }
  a { color: LinkText; }
  a:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

export interface PageOptions {
  /** The `<title>` and `<h1>`. */
  readonly title: string;
  readonly body: Html;
  readonly status?: number;
  /**
   * What the page has to do with email, said in its footer: `sent`, it sends mail, to the outbox
   * (the panel's password reset); `link`, a mail in the outbox linked to it (magic links,
   * password resets). Other pages send none and say nothing of email.
   */
  readonly mail?: 'sent' | 'link';
}

const MAIL_NOTES = {
  sent: " No real email is sent: mail goes to the sandbox's outbox (kactl sandbox outbox).",
  link: " No real email is sent: the link to this page came from the sandbox's outbox.",
} as const;

/** A page's doctype and head, up to `<body>`: never indexed, laid out for small screens; `style` is its style element. */
export function documentHead(title: string, style: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
${style}
</head>`;
}

export function renderPage(options: PageOptions): PageReply {
  const page = html`${documentHead(`${options.title} · kactl sandbox`, html`<style>${new Html(STYLE)}</style>`)}
<body>
<main>
<h1>${options.title}</h1>
${options.body}
<p class="note">Served by a kactl sandbox, a local test server.${options.mail === undefined ? '' : MAIL_NOTES[options.mail]}</p>
</main>
</body>
</html>
`;
  return { status: options.status ?? 200, body: page.text, headers: PAGE_HEADERS };
}
