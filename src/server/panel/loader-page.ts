/**
 * The customer panel's web loader page (docs/protocol/client-api.md §4.29). The protected
 * program listens on `localhost:1337`; this page's script hands it the user's login token, and
 * the program logs in with it. Once the program answers with HTTP 420 (its "ready" status),
 * each button of the app sends `GET /<button value>` to it. The port field exists for testing
 * on another port.
 *
 * The token is a permanent password, and any local user can listen on a free port (docs/design.md,
 * "Web loader handshake"). So the page first asks `/kactl/proof?nonce=…`, a nonce new for this
 * page view, and sends `/handshake?nonce=…&user=…&token=…` by itself only when the answer is the
 * proof of src/api/loader-proof.ts for the port it talks to (made with the app secret, which the
 * page never holds: it gets the per-view key). Only `kactl client web-loader` can make it. A
 * program built on a KeyAuth SDK routes only `/handshake` and answers 404 (without CORS headers,
 * so the page asks again in no-cors mode to tell "something answered" from "nobody listens"):
 * for anything but the proof the page sends nothing and offers the person a button that sends
 * the genuine `/handshake?user=…&token=…` once, saying that anyone on the computer could be
 * listening. Nobody listening: it asks again every 3 seconds. A nonce is used for one token at
 * most; connecting again after that loads the page anew (the port is kept for the tab).
 *
 * Without JavaScript the page still shows the buttons and says what is needed. The page's
 * policy allows only its own script (by nonce) and requests to the loader on loopback.
 */
import { randomBytes } from 'node:crypto';
import { LOADER_PROOF_PATH, loaderKey } from '../../api/loader-proof.js';
import { listLoaderButtons } from '../domain/loader-buttons.js';
import { webLoaderToken } from '../domain/users.js';
import type { PageContext, PageReply } from '../http/pages.js';
import { html, Html, renderPage } from '../client/page-layout.js';
import { findPanelApp, panelNotFound, panelPath, signedInUser, visitorSession } from './panel-visitor.js';

export const LOADER_PORT = 1337;

/** The page's script: the proof check, the handshake loop, the person's choice and the button presses. Reads everything from data- attributes. */
const SCRIPT = `
(function () {
  var root = document.getElementById('loader');
  var status = document.getElementById('loader-status');
  var portInput = document.getElementById('port');
  var choice = document.getElementById('loader-choice');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-value]'));
  var timer = null;
  var ready = false;
  var nonceUsed = false;
  var unproved = null;
  var attempt = 0;
  var remembered = window.sessionStorage && sessionStorage.getItem('kactl-loader-port');
  if (remembered) portInput.value = remembered;
  function port() { return parseInt(portInput.value, 10) || 1337; }
  function originOf(p) { return 'http://localhost:' + p; }
  function origin() { return originOf(port()); }
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
  function credentials() { return 'user=' + encodeURIComponent(root.dataset.user) + '&token=' + encodeURIComponent(root.dataset.token); }
  // Sends the token once: with the proved nonce, or (the person's choice) as the genuine protocol does.
  function sendToken(p, query) {
    nonceUsed = true;
    choice.hidden = true;
    return fetch(originOf(p) + '/handshake?' + query).then(function (res) {
      if (res.status === 420) { setReady(true); say('Connected to the program. Choose an action.'); return; }
      return res.text().then(function (text) { setReady(false); say('The program refused the sign-in: ' + (text || res.statusText || res.status)); });
    });
  }
  // Something answers on port p but did not prove it is kactl: the token stays here unless the person sends it.
  function offerChoice(p, why) {
    unproved = p;
    setReady(false);
    say((why ? why + ' ' : '') + 'The program on localhost:' + p + ' did not prove it is kactl. If it is your own program built with a KeyAuth SDK, send it your sign-in.');
    choice.hidden = false;
  }
  function waitFor(p) {
    setReady(false);
    say('Waiting for the program on ' + originOf(p) + ' (start it, then keep this page open)...');
    timer = setTimeout(handshake, 3000);
  }
  function handshake() {
    clearTimeout(timer);
    choice.hidden = true;
    unproved = null;
    // One token per nonce: a new attempt needs a new page view.
    if (nonceUsed) { location.reload(); return; }
    // Answers to an earlier attempt (another port, or before "Connect again") change nothing.
    var mine = ++attempt;
    function current() { return mine === attempt; }
    var p = port();
    if (window.sessionStorage) sessionStorage.setItem('kactl-loader-port', String(p));
    var question = originOf(p) + '${LOADER_PROOF_PATH}?nonce=' + root.dataset.nonce;
    fetch(question).then(function (res) {
      return res.text().then(function (answer) {
        if (!current()) return;
        if (res.status !== 200) { offerChoice(p); return; }
        return expectedProof(p).then(function (expected) {
          if (!current()) return;
          if (answer.trim() !== expected) { offerChoice(p); return; }
          return sendToken(p, 'nonce=' + root.dataset.nonce + '&' + credentials());
        }, function () { if (current()) offerChoice(p, 'This page can check the program only over https or on localhost.'); });
      });
    }, function () {
      // No readable answer: nobody listens, or a program answered without CORS headers (an SDK
      // loader's 404). An opaque no-cors answer tells the two apart.
      return fetch(question, { mode: 'no-cors' }).then(function () { if (current()) offerChoice(p); }, function () { if (current()) waitFor(p); });
    }).catch(function () { if (current()) waitFor(p); });
  }
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      if (!ready) return;
      fetch(origin() + '/' + encodeURIComponent(button.dataset.value)).then(function (res) {
        say(res.status === 420 ? 'Sent "' + button.textContent + '" to the program.' : 'The program answered ' + res.status + '.');
      }).catch(function () { setReady(false); say('Lost the program; reconnecting...'); handshake(); });
    });
  });
  document.getElementById('send-sign-in').addEventListener('click', function () {
    if (unproved === null || nonceUsed) return;
    var p = unproved;
    unproved = null;
    attempt++;
    say('Sending your sign-in to the program on localhost:' + p + '...');
    sendToken(p, credentials()).catch(function () {
      setReady(false);
      say('The program on localhost:' + p + ' gave no answer this page can read. Press "Connect again" to start over.');
    });
  });
  document.getElementById('connect').addEventListener('click', function () { setReady(false); handshake(); });
  document.getElementById('loader-js-note').hidden = true;
  handshake();
})();
`;

export function loaderPage(ctx: PageContext): PageReply {
  const app = findPanelApp(ctx);
  if (app === undefined) return panelNotFound();
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
<div id="loader-choice" hidden>
<p>Anyone using this computer could be listening on that port: send your sign-in only to a program you started yourself.</p>
<div class="actions"><button type="button" id="send-sign-in">Send my sign-in to this program</button></div>
</div>
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
