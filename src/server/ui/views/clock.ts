/**
 * The sandbox clock (domain/clock.ts, as `kactl sandbox advance` and `clock --reset` move it):
 * where it stands, a form to move it by a duration either way, and one to go back to real time.
 */
import { advanceClock, getClockOffset, isValidOffset, MAX_CLOCK_OFFSET, setClockOffset } from '../../domain/clock.js';
import { shownDuration } from '../../domain/shown.js';
import { formatUtc, html, type Html } from '../../client/page-layout.js';
import { durationHint, parseDuration } from '../../../util/duration.js';
import { postForm, viewPath } from '../layout.js';
import type { Notice } from '../ui-sessions.js';
import type { DashboardView, ViewContext } from '../view.js';

function standing(offset: number): string {
  if (offset === 0) return 'on real time';
  return `${shownDuration(offset)} ${offset > 0 ? 'ahead of' : 'behind'} real time (${offset} s)`;
}

function show(ctx: ViewContext): { body: Html } {
  const { page, session } = ctx;
  const offset = getClockOffset(page.store);
  const path = viewPath('clock');
  const advance = postForm(
    session,
    `${path}/advance`,
    html`<label>By<input name="by" value="1d" required aria-describedby="by-hint"></label><label>Direction<select name="direction"><option value="forward">forward</option><option value="back">back</option></select></label>`,
    'Move the clock',
    { className: 'inline-fields', primary: true },
  );
  const reset = postForm(session, `${path}/reset`, html``, 'Back to real time', { className: 'inline-fields' });
  return {
    body: html`<dl><dt>Sandbox time</dt><dd>${formatUtc(page.now)}</dd><dt>Real time</dt><dd>${formatUtc(page.now - offset)}</dd><dt>Clock</dt><dd>${standing(offset)}</dd></dl>
<p class="note">Sessions, subscriptions, magic links, email codes and mutes run on the sandbox clock; signatures and 2FA codes stay on real time.</p>
<h2>Move</h2>${advance}<p id="by-hint" class="note">${durationHint('seconds')}</p>
<h2>Reset</h2>${reset}`,
  };
}

function advance(ctx: ViewContext): Notice {
  const seconds = parseDuration(ctx.params.raw('by') ?? '', 'seconds');
  if (seconds === undefined || seconds <= 0) return { ok: false, text: durationHint('seconds') };
  const signed = Math.round(seconds) * (ctx.params.raw('direction') === 'back' ? -1 : 1);
  if (!isValidOffset(getClockOffset(ctx.page.store) + signed)) return { ok: false, text: `The clock stays within ${MAX_CLOCK_OFFSET} s (100 years) of real time.` };
  const offset = advanceClock(ctx.page.store, signed);
  return { ok: true, text: `The sandbox clock is now ${standing(offset)}.` };
}

function reset(ctx: ViewContext): Notice {
  setClockOffset(ctx.page.store, 0);
  return { ok: true, text: 'The sandbox clock is back on real time.' };
}

export const clockView: DashboardView = {
  id: 'clock',
  label: 'Clock',
  show,
  actions: [
    { name: 'advance', run: advance },
    { name: 'reset', run: reset },
  ],
};
