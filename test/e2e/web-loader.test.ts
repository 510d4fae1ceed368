/**
 * `kactl client web-loader` against a real sandbox, with the test in the browser's place: the
 * CORS preflight, the handshake with the user's web-loader token (the program logs in with it:
 * HTTP 420), buttons printed one a line, --once, a refused token (200 with the message, exit
 * non-zero) and Ctrl-C (exit 130). The command did not exist before.
 *
 * Then what it must not do (issue 21 item 12): answer pages of any origin, crash on a path that
 * is not valid percent-encoding, print control characters; and the nonce handshake the sandbox's
 * page asks for: a proof made with the app secret for the port, asked at `/kactl/proof` (outside
 * the `/handshake` that KeyAuth SDK loaders route), each nonce good for one token.
 */
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { startWebLoader } from '../helpers/web-loader.js';

const SLOW = 60_000;
let sb: E2ESandbox;
let token: string;
/** The pages the loader answers: the sandbox's own origin (its customer panel lives there). */
let panel: { headers: { origin: string } };

/** The proof the page expects, computed here as docs/design.md "Web loader handshake" says. */
function expectedProof(secret: string, nonce: string, port: number): string {
  const key = createHmac('sha256', secret).update(`kactl web-loader key\n${nonce}`).digest();
  return createHmac('sha256', key).update(`kactl web-loader proof\n${port}`).digest('hex');
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', 'web-loader-hwid-0000-0000-0001']);
  await sb.ok(['users', 'create', '--username', 'dana', '--password-stdin', '--sub', 'default', '--expiry', '30'], { input: 'dana-pass-123' });
  token = (await sb.json<{ token: string }>(['users', 'get', 'dana', '--json'])).token;
  panel = { headers: { origin: new URL(sb.info.baseUrl).origin } };
}, SLOW);

describe('kactl client web-loader (e2e)', () => {
  it('answers the preflight and handshake, prints buttons, stops after --once', async () => {
    const loader = await startWebLoader(sb.configDir, ['--once']);
    const origin = `http://127.0.0.1:${loader.port}`;
    const early = await fetch(`${origin}/launch`, panel);
    expect(early.status).toBe(409);
    const preflight = await fetch(`${origin}/handshake`, { method: 'OPTIONS', ...panel });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(panel.headers.origin);
    const hello = await fetch(`${origin}/handshake?user=dana&token=${token}`, panel);
    expect(hello.status).toBe(420);
    expect(hello.statusText).toBe('SHEESH');
    expect(hello.headers.get('access-control-allow-origin')).toBe(panel.headers.origin);
    const press = await fetch(`${origin}/launch-cheat`, panel);
    expect(press.status).toBe(420);
    expect(await loader.exited()).toBe(0);
    expect(loader.stdout()).toBe('launch-cheat\n');
    expect(loader.stderr()).toContain('Signed in as dana');
  }, SLOW);

  it('a wrong token: 200 with the message as the reason, and the loader stops non-zero', async () => {
    const loader = await startWebLoader(sb.configDir);
    const res = await fetch(`http://127.0.0.1:${loader.port}/handshake?user=dana&token=${'0'.repeat(32)}`, panel);
    expect(res.status).toBe(200);
    expect(res.statusText).toBe('Password does not match.');
    expect(await loader.exited()).toBe(1);
    expect(loader.stderr()).toContain('Password does not match.');
  }, SLOW);

  it('Ctrl-C stops it (130); a port in use or a bad port is a usage error', async () => {
    const loader = await startWebLoader(sb.configDir);
    expect(await loader.stop()).toBe(130);
    const busy = await startWebLoader(sb.configDir);
    const clash = await sb.kactl(['client', 'web-loader', '--port', String(busy.port)]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(`Port ${busy.port} is in use`);
    await busy.stop();
    const bad = await sb.kactl(['client', 'web-loader', '--port', '70000']);
    expect(bad.code).toBe(2);
  }, SLOW);
});

describe('kactl client web-loader answers only the panel, and proves itself first (e2e)', () => {
  it('refuses pages of other origins and requests without one (403), saying so once on stderr', async () => {
    const loader = await startWebLoader(sb.configDir);
    const at = `http://127.0.0.1:${loader.port}`;
    const evil = { headers: { origin: 'http://evil.example' } };
    for (const path of ['/handshake?user=dana&token=' + token, '/kactl/proof?nonce=' + 'a'.repeat(32), '/launch']) {
      const res = await fetch(`${at}${path}`, evil);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect((await fetch(`${at}/handshake?user=dana&token=${token}`)).status).toBe(403);
    expect((await fetch(`${at}/handshake`, { method: 'OPTIONS', ...evil })).status).toBe(403);
    // Signed in by the panel, buttons from elsewhere are still refused.
    expect((await fetch(`${at}/handshake?user=dana&token=${token}`, panel)).status).toBe(420);
    expect((await fetch(`${at}/launch`, evil)).status).toBe(403);
    expect(await loader.stop()).toBe(130);
    expect(loader.stdout()).toBe('');
    expect(loader.stderr().match(/Refused a page of "http:\/\/evil\.example"/g)).toHaveLength(1);
    expect(loader.stderr()).toContain('Refused a request without an Origin');
  }, SLOW);

  it('answers the page\'s nonce at /kactl/proof with the proof for its port; a nonce is good for one token, and only one it proved', async () => {
    const loader = await startWebLoader(sb.configDir);
    const at = `http://127.0.0.1:${loader.port}`;
    const nonce = 'c0ffee'.padEnd(32, '0');
    const probe = await fetch(`${at}/kactl/proof?nonce=${nonce}`, panel);
    expect(probe.status).toBe(200);
    expect(await probe.text()).toBe(expectedProof(sb.info.app.secret, nonce, loader.port));
    expect((await fetch(`${at}/kactl/proof?nonce=nothex`, panel)).status).toBe(400);
    // /handshake is the login, as in every KeyAuth loader: a nonce alone there is no question.
    const unasked = 'd'.repeat(32);
    const bare = await fetch(`${at}/handshake?nonce=${unasked}`, panel);
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain('needs user and token');
    expect((await fetch(`${at}/handshake?nonce=${unasked}&user=dana&token=${token}`, panel)).status).toBe(403);
    expect((await fetch(`${at}/handshake?nonce=${'1'.repeat(32)}&user=dana&token=${token}`, panel)).status).toBe(403);
    expect((await fetch(`${at}/handshake?nonce=nothex&user=dana&token=${token}`, panel)).status).toBe(400);
    expect((await fetch(`${at}/handshake?nonce=${nonce}&user=dana&token=${token}`, panel)).status).toBe(420);
    const again = await fetch(`${at}/handshake?nonce=${nonce}&user=dana&token=${token}`, panel);
    expect(again.status).toBe(403);
    expect(await again.text()).toBe('This handshake nonce was not proved here, or was used already.');
    expect(await loader.stop()).toBe(130);
  }, SLOW);

  it('without the app secret it cannot prove itself, and says so at start; the token sent by the click still signs in', async () => {
    await sb.ok(['profile', 'add', 'no-secret', '--base-url', sb.info.baseUrl, '--app-name', sb.info.app.name, '--ownerid', sb.info.app.ownerid, '--public-key', sb.info.publicKey, '--hwid', 'web-loader-hwid-0000-0000-0001']);
    const loader = await startWebLoader(sb.configDir, ['--profile', 'no-secret']);
    const at = `http://127.0.0.1:${loader.port}`;
    const probe = await fetch(`${at}/kactl/proof?nonce=${'2'.repeat(32)}`, panel);
    expect(probe.status).toBe(403);
    expect(loader.stderr()).toContain('The profile has no app secret');
    expect(loader.stderr()).toContain('Send my sign-in to this program');
    expect((await fetch(`${at}/handshake?user=dana&token=${token}`, panel)).status).toBe(420);
    expect(await loader.stop()).toBe(130);
  }, SLOW);

  it('answers a path that is not valid percent-encoding with 400 and goes on; prints buttons without control characters', async () => {
    const loader = await startWebLoader(sb.configDir);
    const at = `http://127.0.0.1:${loader.port}`;
    expect((await fetch(`${at}/%E0%A4%A`, panel)).status).toBe(400);
    expect((await fetch(`${at}/handshake?user=dana&token=${token}`, panel)).status).toBe(420);
    expect((await fetch(`${at}/%E0%A4%A`, panel)).status).toBe(400);
    expect((await fetch(`${at}/evil%1B%5B2J%1B%5D0;title%07%0Anext%09tab`, panel)).status).toBe(420);
    expect((await fetch(`${at}/launch`, panel)).status).toBe(420);
    expect(await loader.stop()).toBe(130);
    expect(loader.stdout()).toBe('evil[2J]0;titlenexttab\nlaunch\n');
  }, SLOW);
});
