/**
 * The customer panel's web loader page (docs/protocol/client-api.md §4.29). The protected
 * program listens on `localhost:1337`; this page's script hands it the user's login token, and
 * the program logs in with it. Once the program answers with HTTP 420 (its "ready" status),
 * each button of the app sends `GET /<button value>` to it. The port field exists for testing
 * on another port.
 *
 * The token is a permanent password, and any local user can listen on a free port: so the page
 * first sends only `/handshake?nonce=…`, a nonce new for this page view, and sends
 * `/handshake?nonce=…&user=…&token=…` only when the answer is the proof of src/api/loader-proof.ts
 * for the port it talks to (made with the app secret, which the page never holds: it gets the
 * per-view key). No answer: it asks again every 3 seconds. A nonce is used for one token at most;
 * connecting again after that loads the page anew (the port is kept for the tab).
 *
 * Without JavaScript the page still shows the buttons and says what is needed. The page's
 * policy allows only its own script (by nonce) and requests to the loader on loopback.
 */
import { randomBytes } from 'node:crypto';
import { loaderKey } from '../../api/loader-proof.js';
import { listLoaderButtons } from '../domain/loader-buttons.js';
import { webLoaderToken } from '../domain/users.js';
import type { PageContext, PageReply } from '../http/pages.js';
import { html, Html, renderPage } from '../client/page-layout.js';
import { findPanelApp, panelPath, signedInUser, visitorSession } from './panel-pages.js';

export const LOADER_PORT = 1337;

/** The page's script: the proof check, the handshake loop and the button presses. Reads everything from data- attributes. */
const SCRIPT = `
(function () {
  var root = document.getElementById('loader');
  var status = document.getElementById('loader-status');
  var portInput = document.getElementById('port');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-value]'));
  var timer = null;
  var ready = false;
  var nonceUsed = false;
  var remembered = window.sessionStorage && sessionStorage.getItem('kactl-loader-port');
  if (remembered) portInput.value = remembered;
  function port() { return parseInt(portInput.value, 10) || 1337; }
  function origin() { return 'http://localhost:' + port(); }
  function say(text) { status.textContent = text; }
  function setReady(value) { ready = value; buttons.forEach(function (b) { b.disabled = !value; }); }
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function bytes(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
    return out;
  }
  // What the program must answer to this page's nonce on port p (src/api/loader-proof.ts).
  function expectedProof(p) {
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) return Promise.reject(new Error('no WebCrypto'));
    return subtle.importKey('raw', bytes(root.dataset.key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
      .then(function (key) { return subtle.sign('HMAC', key, new TextEncoder().encode('kactl web-loader proof\\n' + p)); })
      .then(hex);
  }
  function sendToken(p) {
    nonceUsed = true;
    var url = origin() + '/handshake?nonce=' + root.dataset.nonce + '&user=' + encodeURIComponent(root.dataset.user) + '&token=' + encodeURIComponent(root.dataset.token);
    return fetch(url).then(function (res) {
      if (res.status === 420) { setReady(true); say('Connected to the program. Choose an action.'); return; }
      return res.text().then(function (text) { setReady(false); say('The program refused the sign-in: ' + (text || res.statusText || res.status)); });
    });
  }
  function handshake() {
    clearTimeout(timer);
    // One token per nonce: a new attempt needs a new page view.
    if (nonceUsed) { location.reload(); return; }
    var p = port();
    if (window.sessionStorage) sessionStorage.setItem('kactl-loader-port', String(p));
    fetch(origin() + '/handshake?nonce=' + root.dataset.nonce).then(function (res) {
      return res.text().then(function (answer) {
        if (res.status !== 200) { setReady(false); say('The program refused the handshake: ' + (answer || res.statusText || res.status)); return; }
        return expectedProof(p).then(function (expected) {
          if (answer.trim() !== expected) { setReady(false); say('The program on ' + origin() + ' could not prove it is kactl for this app; the sign-in token was not sent.'); return; }
          return sendToken(p);
        }, function () { setReady(false); say('This page can check the program only over https or on localhost; the sign-in token was not sent.'); });
      });
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
  // The handshake's nonce for this page view, and the key derived from it (src/api/loader-proof.ts).
  const handshakeNonce = randomBytes(16).toString('hex');
  const buttonHtml = buttons.map((button) => html`<button type="button" data-value="${button.value}" disabled>${button.text}</button>`);
  const page = renderPage({
    title: `${app.name} web loader`,
    body: html`<div id="loader" data-user="${user.username}" data-token="${token}" data-nonce="${handshakeNonce}" data-key="${loaderKey(app.secret, handshakeNonce)}">
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
