/**
 * The dashboard's home: the sandbox's application, its settings and counts. "Online users" are
 * people: the users signed in now, each once however many sessions they hold (what
 * `fetchOnline` lists); the client API's `numOnlineUsers` counts signed-in sessions, shown as
 * such.
 */
import { appCounts, customerPanelLink } from '../../domain/apps.js';
import { getClockOffset } from '../../domain/clock.js';
import { onlineCredentials } from '../../domain/sessions.js';
import { shownDuration } from '../../domain/shown.js';
import { formatUtc, html, joinHtml, type Html } from '../../client/page-layout.js';
import { count, yesNo } from '../layout.js';
import type { DashboardView, ViewContext } from '../view.js';

function field(name: string, value: string | Html): Html {
  return html`<dt>${name}</dt><dd>${value}</dd>`;
}

function show(ctx: ViewContext): { body: Html } {
  const { app, page } = ctx;
  const counts = appCounts(page.store, app.id, page.now);
  const offset = getClockOffset(page.store);
  const panel = customerPanelLink(app, ctx.deps.panelUrl?.() ?? page.baseUrl);
  const settings = [
    field('Name', app.name),
    field('Owner id', html`<code>${app.ownerid}</code>`),
    field('Owner account', app.owner),
    field('Version', app.ver),
    field('Enabled', yesNo(app.enabled)),
    field('Paused', yesNo(app.paused)),
    field('HWID check', yesNo(app.hwidcheck)),
    field('VPN block', yesNo(app.vpnblock)),
    field('Hash check', yesNo(app.hashcheck)),
    field('Token system', yesNo(app.tokensystem)),
    field('Force encryption', yesNo(app.forceEncryption)),
    field('Block leaked passwords', yesNo(app.blockLeakedPasswords)),
    field('Kill other sessions at login', yesNo(app.killOtherSessions)),
    field('Session length', shownDuration(app.sessionLength)),
    field('HWID reset cooldown', shownDuration(app.cooldown)),
    field('Download link', app.download ?? '—'),
    field('Web download link', app.webdownload ?? '—'),
    field('Customer panel', html`<a href="${panel}">${panel}</a>`),
    field('Created', formatUtc(app.createdAt)),
  ];
  const numbers = [
    field('Users', count(counts.numUsers)),
    field('Online users', count(onlineCredentials(page.store, app.id, page.now).length)),
    field('Signed-in sessions', count(counts.numOnlineUsers)),
    field('License keys', count(counts.numKeys)),
  ];
  const clock = offset === 0 ? 'real time' : `${shownDuration(Math.abs(offset))} ${offset > 0 ? 'ahead of' : 'behind'} real time`;
  return {
    body: html`<p class="note">The sandbox at <code>${page.baseUrl}</code>; its clock is ${clock} (now ${formatUtc(page.now)}). The app secret and seller key are not shown here: they are in the ready line of <code>kactl sandbox start --json</code> and in the profile it saved.</p>
<h2>Settings</h2><dl>${joinHtml(settings)}</dl>
<h2>Counts</h2><dl>${joinHtml(numbers)}</dl>`,
  };
}

export const appView: DashboardView = { id: '', label: 'App', show };
