/** The app's global variables, and the users' variables (a page at a time). */
import { listGlobalVars } from '../../domain/global-vars.js';
import { html, type Html } from '../../client/page-layout.js';
import { table, viewPath, yesNo } from '../layout.js';
import { pageAsked, paged, pager } from '../paging.js';
import type { DashboardView, ViewContext } from '../view.js';

interface UserVarListed {
  readonly username: string;
  readonly name: string;
  readonly data: string;
  readonly readOnly: number;
}

function show(ctx: ViewContext): { body: Html } {
  const { page, app, params } = ctx;
  const globals = listGlobalVars(page.store, app.id);
  const globalRows = globals.map((v) => html`<tr><td><code>${v.varid}</code></td><td><pre>${v.msg}</pre></td><td>${yesNo(v.authed)}</td></tr>`);
  const userVars = paged<UserVarListed>(
    page.store,
    { from: '(SELECT u.username, v.name, v.data, v.readOnly, v.id FROM user_vars v JOIN users u ON u.id = v.userId WHERE v.appId = ?)', args: [app.id], order: 'id DESC' },
    pageAsked(params),
  );
  const userRows = userVars.rows.map((v) => html`<tr><td>${v.username}</td><td><code>${v.name}</code></td><td><pre>${v.data}</pre></td><td>${yesNo(v.readOnly)}</td></tr>`);
  return {
    body: html`<h2>Global variables</h2>
${globals.length === 0 ? html`<p class="note">No global variables.</p>` : table('Global variables (the client API reads them with var)', ['Name', 'Value', 'Signed-in only'], globalRows)}
<h2>User variables</h2>
${pager(userVars, viewPath('variables'), 'user variables')}
${userVars.total === 0 ? html`` : table('User variables, newest first', ['User', 'Name', 'Value', 'Read-only'], userRows)}`,
  };
}

export const variablesView: DashboardView = { id: 'variables', label: 'Variables', show };
