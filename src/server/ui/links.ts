/**
 * A stored URL as a link. Only http(s) URLs become links: a `javascript:` or `data:` URL
 * stored through an API is shown as text, never as something a click runs.
 */
import { html, type Html } from '../client/page-layout.js';

export function safeLink(url: string, label: string = url): Html {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return html`<code>${url}</code>`;
  }
  return protocol === 'http:' || protocol === 'https:' ? html`<a href="${url}" rel="noreferrer">${label}</a>` : html`<code>${url}</code>`;
}
