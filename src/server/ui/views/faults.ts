/**
 * The faults the sandbox injects into its answers (faults/): the ones it holds with how often each
 * fired, a form to add one, and a clear button per fault and for all. The very book the admin
 * route `/sandbox/faults` uses (`deps.faultBook`), read from the form as that route reads its
 * body and checked by the same checkFaultInput (a misspelt type is refused with the nearest
 * name), so a fault added here is the one `kactl sandbox fault list` shows. The dashboard itself is never faulted (http/fault-stage.ts), so this view
 * stays usable while a fault hits every page.
 */
import { checkFaultInput } from '../../faults/checked-spec.js';
import { describeFilters, FAULT_APIS, FAULT_KINDS, faultLabel, kindInfo } from '../../faults/spec.js';
import type { Fault } from '../../faults/book.js';
import { faultInputOf } from '../../http/faults-endpoint.js';
import { html, joinHtml, type Html } from '../../client/page-layout.js';
import { postForm, table, viewPath } from '../layout.js';
import type { Notice } from '../ui-sessions.js';
import type { DashboardView, ViewContext } from '../view.js';

const PATH = viewPath('faults');

/** `stale-timestamp (DURATION, required)`: each kind with the argument it takes. */
function kindOptions(): Html {
  return joinHtml(
    FAULT_KINDS.map((kind) => {
      const arg = kindInfo(kind).arg;
      const takes = arg === undefined ? '' : ` (${arg.name}${arg.required ? '' : ', optional'})`;
      return html`<option value="${kind}">${kind}${takes}</option>`;
    }),
  );
}

function addForm(ctx: ViewContext): Html {
  const fields = html`<label>Kind<select name="kind" required>${kindOptions()}</select></label><label>Argument<input name="arg" placeholder="503, 10m" aria-describedby="fault-hint"></label><label>Types<input name="type" placeholder="login,init"></label><label>APIs<input name="api" placeholder="${FAULT_APIS.join(',')}"></label><label>User<input name="user"></label><label>Times<input name="times" inputmode="numeric"></label><label>Rate<input name="rate" inputmode="decimal" placeholder="0.5"></label>`;
  return postForm(ctx.session, `${PATH}/add`, fields, 'Add fault', { className: 'inline-fields', primary: true });
}

function faultRow(ctx: ViewContext, fault: Fault): Html {
  const clear = postForm(ctx.session, `${PATH}/clear`, html`<input type="hidden" name="id" value="${fault.id}">`, `Clear fault ${fault.id}`);
  return html`<tr><td>${fault.id}</td><td>${fault.kind}</td><td>${fault.arg ?? ''}</td><td>${describeFilters(fault)}</td><td>${fault.fired}</td><td>${clear}</td></tr>`;
}

function show(ctx: ViewContext): { body: Html } {
  const faults = ctx.deps.faultBook.list();
  const held =
    faults.length === 0
      ? html`<p>No faults: the sandbox answers as it should.</p>`
      : html`${table('Faults, oldest first (the first that matches an answer fires)', ['Id', 'Kind', 'Argument', 'Filters', 'Fired', 'Clear'], faults.map((fault) => faultRow(ctx, fault)))}
${postForm(ctx.session, `${PATH}/clear-all`, html``, 'Clear all faults', { className: 'inline-fields' })}`;
  return {
    body: html`<p class="note">The sandbox answers wrongly on purpose while a fault holds: a program should refuse or survive it. Faults live in memory; a restarted sandbox has none. The dashboard is never faulted.</p>
<h2>Held</h2>${held}
<h2>Add</h2>${addForm(ctx)}
<p id="fault-hint" class="note">Types and APIs take comma-separated lists (APIs: ${FAULT_APIS.join(', ')}); empty filters hit every request. Give Times or Rate, not both.</p>`,
  };
}

function add(ctx: ViewContext): Notice {
  const spec = checkFaultInput(faultInputOf(ctx.params));
  if ('error' in spec) return { ok: false, text: `${spec.error}.` };
  const fault = ctx.deps.faultBook.add(spec);
  return { ok: true, text: `Fault ${fault.id} added: ${faultLabel(fault)} on ${describeFilters(fault)}.` };
}

function clear(ctx: ViewContext): Notice {
  const raw = ctx.params.get('id') ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
  if (id === undefined || ctx.deps.faultBook.clear(id) === 0) return { ok: false, text: `No fault has id ${raw.slice(0, 40)}: it was cleared already.` };
  return { ok: true, text: `Fault ${id} cleared.` };
}

function clearAll(ctx: ViewContext): Notice {
  const cleared = ctx.deps.faultBook.clear();
  return { ok: true, text: cleared === 0 ? 'There were no faults to clear.' : `Cleared ${cleared} fault${cleared === 1 ? '' : 's'}: the sandbox answers as it should.` };
}

export const faultsView: DashboardView = {
  id: 'faults',
  label: 'Faults',
  show,
  actions: [
    { name: 'add', run: add },
    { name: 'clear', run: clear },
    { name: 'clear-all', run: clearAll },
  ],
};
