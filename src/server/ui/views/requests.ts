/**
 * The request inspector (inspector/): the newest records that match the filter, newest first,
 * each with what the client got (a faulted answer's status, a reset…), the fault that did it,
 * and the reason. With JavaScript on, new records appear as the sandbox serves them: the
 * page follows `GET /sandbox/ui/requests/live` (server-sent events, the same follower as the
 * admin route `GET /sandbox/requests?follow=1`, behind the dashboard's cookie) and adds rows
 * made with `textContent`, never as HTML.
 */
import type { LoggedRequest } from '../../../api/sandbox-admin.js';
import { recordJson } from '../../inspector/derived.js';
import { filterOf, type RecordFilter } from '../../inspector/filter.js';
import { RECORD_APIS, type RequestRecord } from '../../inspector/records.js';
import { html, joinHtml, type Html } from '../../client/page-layout.js';
import type { Params } from '../../dispatch/params.js';
import { table, viewPath, whenCell } from '../layout.js';
import type { DashboardView, ViewContext } from '../view.js';

/** Records the page shows at first; the live ones are added above them. */
export const SHOWN_RECORDS = 100;
export const LIVE_PATH = `${viewPath('requests')}/live`;

/** The filter the query asks for; a wrong value is said, and nothing filtered by it. */
export function requestFilter(params: Params): { filter: RecordFilter; problem?: string } {
  const filter = filterOf(params);
  return 'error' in filter ? { filter: {}, problem: filter.error } : { filter };
}

function time(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 23);
}

/**
 * What the client got, in a word: no whole answer first, then a refusal (an HTTP error counts,
 * a faulted 503 included), then what is none though the wire says `success:false`. The live
 * script below says the same (OUTCOME_JS).
 */
export function outcomeOf(record: Pick<LoggedRequest, 'delivery' | 'failed' | 'empty' | 'probe' | 'success'>): string {
  if (record.delivery === 'reset') return 'reset';
  if (record.delivery === 'truncated') return 'cut short';
  if (record.delivery === 'abandoned') return 'client gave up';
  if (record.probe) return "kactl's check";
  if (record.empty) return 'empty list';
  if (record.failed) return 'refused';
  return record.success === null ? '' : 'ok';
}

const OUTCOME_JS = `(r) => r.delivery === 'reset' ? 'reset' : r.delivery === 'truncated' ? 'cut short' : r.delivery === 'abandoned' ? 'client gave up' : r.probe ? "kactl's check" : r.empty ? 'empty list' : r.failed ? 'refused' : r.success === null ? '' : 'ok'`;

function row(stored: RequestRecord): Html {
  const record = recordJson(stored);
  const status = record.status === 0 ? '—' : String(record.status);
  return html`<tr><td>${String(record.id)}</td>${whenCell(time(stored.at))}<td>${record.api}</td><td>${record.type ?? ''}</td><td>${record.user ?? ''}</td><td>${status}</td><td>${outcomeOf(record)}</td><td>${record.fault ?? ''}</td><td>${record.reason ?? record.message ?? ''}</td><td>${record.ip}</td>${whenCell(`${record.durationMs} ms`)}</tr>`;
}

function filterForm(params: Params): Html {
  const api = params.raw('api') ?? '';
  const apis = ['', ...RECORD_APIS].map((value) => html`<option value="${value}"${value === api ? html` selected` : html``}>${value === '' ? 'any' : value}</option>`);
  const failed = params.raw('failed') === '1' ? html` checked` : html``;
  return html`<form method="get" action="${viewPath('requests')}" class="inline-fields"><label>API<select name="api">${joinHtml(apis)}</select></label><label>Types (comma list)<input name="type" value="${params.raw('type') ?? ''}"></label><label>User<input name="user" value="${params.raw('user') ?? ''}"></label><label><span>Refused only</span><input type="checkbox" name="failed" value="1"${failed}></label><button type="submit">Filter</button></form>`;
}

function show(ctx: ViewContext): { body: Html; script?: string } {
  const { recorder } = ctx.deps;
  const { filter, problem } = requestFilter(ctx.params);
  const records = recorder.list(filter, { limit: SHOWN_RECORDS }).reverse();
  const lastId = records[0]?.id ?? 0;
  const query = new URLSearchParams();
  for (const name of ['api', 'type', 'user', 'failed']) {
    const value = ctx.params.raw(name);
    if (value !== undefined && value !== '' && problem === undefined) query.set(name, value);
  }
  query.set('after', String(lastId));
  const off = recorder.recording ? html`` : html`<p role="alert">The request inspector is off (the sandbox was started with --log-limit 0).</p>`;
  const body = html`${off}${problem === undefined ? html`` : html`<p role="alert">${problem}</p>`}${filterForm(ctx.params)}
<p class="note">The newest ${String(SHOWN_RECORDS)} that match, newest first; the sandbox keeps ${String(recorder.limit)}. Also <code>kactl sandbox logs</code>. <span id="live-status" class="live" role="status" aria-live="polite" data-source="${`${LIVE_PATH}?${query.toString()}`}">Reload the page to see new requests.</span></p>
${table('Requests', ['#', 'Time (UTC)', 'API', 'Type', 'User', 'Status', 'Answer', 'Fault', 'Reason', 'Client IP', 'Took'], records.map(row), { bodyId: 'request-rows' })}`;
  return { body, script: LIVE_SCRIPT };
}

/** Follows the live stream; each record becomes a row built from text nodes. */
const LIVE_SCRIPT = `
(() => {
  const status = document.getElementById('live-status');
  const rows = document.getElementById('request-rows');
  if (!status || !rows || !window.EventSource) return;
  const source = new EventSource(status.dataset.source);
  const cell = (text, when) => { const td = document.createElement('td'); td.textContent = text; if (when) td.className = 'when'; return td; };
  const outcome = ${OUTCOME_JS};
  source.addEventListener('open', () => { status.textContent = 'Live: new requests appear at the top.'; });
  source.addEventListener('request', (event) => {
    const r = JSON.parse(event.data);
    const tr = document.createElement('tr');
    const texts = [String(r.id), r.time.replace('T', ' ').slice(0, 23), r.api, r.type ?? '', r.user ?? '', r.status === 0 ? '—' : String(r.status), outcome(r), r.fault ?? '', r.reason ?? r.message ?? '', r.ip, r.durationMs + ' ms'];
    texts.forEach((text, i) => tr.append(cell(text, i === 1 || i === 10)));
    rows.prepend(tr);
    while (rows.rows.length > 500) rows.deleteRow(-1);
  });
  source.addEventListener('end', (event) => { status.textContent = 'Stopped: ' + JSON.parse(event.data).message; source.close(); });
  source.addEventListener('error', () => { if (source.readyState === EventSource.CLOSED) status.textContent = 'Not live: reload the page.'; });
})();
`;

export const requestsView: DashboardView = { id: 'requests', label: 'Requests', show };
