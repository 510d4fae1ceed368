/**
 * `kactl client web-loader` against a real sandbox, with the test in the browser's place: the
 * CORS preflight, the handshake with the user's web-loader token (the program logs in with it:
 * HTTP 420), buttons printed one a line, --once, a refused token (200 with the message, exit
 * non-zero) and Ctrl-C (exit 130). The command did not exist before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { startWebLoader } from '../helpers/web-loader.js';

const SLOW = 60_000;
let sb: E2ESandbox;
let token: string;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', 'web-loader-hwid-0000-0000-0001']);
  await sb.ok(['users', 'create', '--username', 'dana', '--password-stdin', '--sub', 'default', '--expiry', '30'], { input: 'dana-pass-123' });
  token = (await sb.json<{ token: string }>(['users', 'get', 'dana', '--json'])).token;
}, SLOW);

describe('kactl client web-loader (e2e)', () => {
  it('answers the preflight and handshake, prints buttons, stops after --once', async () => {
    const loader = await startWebLoader(sb.configDir, ['--once']);
    const origin = `http://127.0.0.1:${loader.port}`;
    const early = await fetch(`${origin}/launch`);
    expect(early.status).toBe(409);
    const preflight = await fetch(`${origin}/handshake`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const hello = await fetch(`${origin}/handshake?user=dana&token=${token}`);
    expect(hello.status).toBe(420);
    expect(hello.statusText).toBe('SHEESH');
    expect(hello.headers.get('access-control-allow-origin')).toBe('*');
    const press = await fetch(`${origin}/launch-cheat`);
    expect(press.status).toBe(420);
    expect(await loader.exited()).toBe(0);
    expect(loader.stdout()).toBe('launch-cheat\n');
    expect(loader.stderr()).toContain('Signed in as dana');
  }, SLOW);

  it('a wrong token: 200 with the message as the reason, and the loader stops non-zero', async () => {
    const loader = await startWebLoader(sb.configDir);
    const res = await fetch(`http://127.0.0.1:${loader.port}/handshake?user=dana&token=${'0'.repeat(32)}`);
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
