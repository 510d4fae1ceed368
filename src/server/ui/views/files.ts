/** The app's files (what the client API's `file` downloads). */
import { listFiles } from '../../domain/files.js';
import { formatUtc, html, type Html } from '../../client/page-layout.js';
import { table, whenCell, yesNo } from '../layout.js';
import { safeLink } from '../links.js';
import type { DashboardView, ViewContext } from '../view.js';

function show(ctx: ViewContext): { body: Html } {
  const files = listFiles(ctx.page.store, ctx.app.id);
  if (files.length === 0) return { body: html`<p class="note">No files. The seller API's <code>upload</code> adds one by its URL.</p>` };
  const rows = files.map((file) => html`<tr><td><code>${file.id}</code></td><td>${file.name}</td><td>${file.size}</td><td>${safeLink(file.url)}</td><td>${yesNo(file.authed)}</td>${whenCell(formatUtc(file.uploaddate))}</tr>`);
  return { body: table('Files', ['Id', 'Name', 'Size', 'URL', 'Signed-in only', 'Added'], rows) };
}

export const filesView: DashboardView = { id: 'files', label: 'Files', show };
