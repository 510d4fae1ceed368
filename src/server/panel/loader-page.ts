/**
 * The customer panel's web loader page (docs/protocol/client-api.md §4.29). The protected
 * program listens on `localhost:1337`; this page's script asks it for `/handshake?user=…&token=…`
 * (retrying every 3 seconds until it answers), and the program logs in with that token. Once
 * the program answers the handshake with HTTP 420 (its "ready" status), each button of the app
 * sends `GET /<button value>` to it. The port field exists for testing on another port.
 *
 * Without JavaScript the page still shows the buttons and says what is needed. The page's
 * policy allows only its own script (by nonce) and requests to the loader on loopback.
 */
import { randomBytes } from 'node:crypto';
import { listLoaderButtons } from '../domain/loader-buttons.js';
import { webLoaderToken } from '../domain/users.js';
import type { PageContext, PageReply } from '../http/pages.js';
import { html, Html, renderPage } from '../client/page-layout.js';
import { findPanelApp, panelPath, signedInUser, visitorSession } from './panel-pages.js';

export const LOADER_PORT = 1337;

/** The page's script: the handshake loop and the button presses. Reads everything from data- attributes. */
const SCRIPT = `
(function () {
  var root = document.getElementById('loader');
  var status = document.getElementById('loader-status');
  var portInput = document.getElementById('port');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-value]'));
  var timer = null;
  var ready = false;
  function origin() { return 'http://localhost:' + (parseInt(portInput.value, 10) || 1337); }
  function say(text) { status.textContent = text; }
  function setReady(value) { ready = value; buttons.forEach(function (b) { b.disabled = !value; }); }
  function handshake() {
    clearTimeout(timer);
    var url = origin() + '/handshake?user=' + encodeURIComponent(root.dataset.user) + '&token=' + encodeURIComponent(root.dataset.token);
    fetch(url).then(function (res) {
      if (res.status === 420) { setReady(true); say('Connected to the program. Choose an action.'); return; }
      return res.text().then(function (text) { setReady(false); say('The program refused the sign-in: ' + (text || res.statusText || res.status)); });
    }).catch(function () {
      setReady(false);
      say('Waiting for the program on ' + origin() + ' (start it, then keep this page open)...');
      timer = setTimeout(handshake, 3000);
    });
  }
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      if (!ready) return;
      fetch(origin() + '/' + encodeURIComponent(button.dataset.value)).then(function (res) {
        say(res.status === 420 ? 'Sent "' + button.textContent + '" to the program.' : 'The program answered ' + res.status + '.');
      }).catch(function () { setReady(false); say('Lost the program; reconnecting...'); handshake(); });
    });
  });
  document.getElementById('connect').addEventListener('click', function () { setReady(false); handshake(); });
  document.getElementById('loader-js-note').hidden = true;
  handshake();
})();
`;

export function loaderPage(ctx: PageContext): PageReply {
  const app = findPanelApp(ctx);
  if (app === undefined) return renderPage({ title: 'Panel not found', status: 404, body: html`<p>No application has a customer panel at this address.</p>` });
  const session = visitorSession(ctx, app);
  const user = signedInUser(ctx, session);
  if (user === undefined) return { status: 303, body: '', headers: { location: panelPath(app), 'cache-control': 'no-store' } };
  const token = webLoaderToken(user) ?? '';
  const buttons = listLoaderButtons(ctx.store, app.id);
  const nonce = randomBytes(16).toString('base64');
  const buttonHtml = buttons.map((button) => html`<button type="button" data-value="${button.value}" disabled>${button.text}</button>`);
  const page = renderPage({
    title: `${app.name} web loader`,
    body: html`<div id="loader" data-user="${user.username}" data-token="${token}">
<p id="loader-js-note">This page needs JavaScript to talk to the program running on your computer.</p>
<p id="loader-status" role="status" aria-live="polite">Starting...</p>
<label for="port">Program port</label>
<input id="port" name="port" inputmode="numeric" value="${LOADER_PORT}">
<div class="actions"><button type="button" id="connect">Connect again</button></div>
<h2>Actions</h2>
${buttons.length === 0 ? html`<p>This application has no loader actions.</p>` : html`<div class="actions">${new Html(buttonHtml.map((b) => b.text).join(''))}</div>`}
<p><a href="${panelPath(app)}">Back to the panel</a></p>
</div>
<script nonce="${nonce}">${new Html(SCRIPT)}</script>`,
  });
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src http://localhost:* http://127.0.0.1:*; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
  return { ...page, headers: { ...page.headers, 'content-security-policy': csp } };
}
