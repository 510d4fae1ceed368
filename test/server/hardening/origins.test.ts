/**
 * Issue 29 item 9: CORS `*` and no Host check on loopback. Any web page could read the app name
 * and ownerid from the home page and drive the client API of the tester's sandbox, and a page
 * reached through DNS rebinding (`Host: rebind.evil.example`) got the home page. Now only
 * loopback pages and `--cors` origins get the CORS header, a Host that is not the sandbox's is
 * 421, and a Private Network Access preflight is refused unless `--cors` names its origin.
 * keyauth-js sends `Host: keyauth.win` over plain HTTP whatever its base URL: the hosted names
 * stay accepted (src/server/http/origin-policy.ts says why).
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request with headers fetch() will not send as given (Host), over node:http. */
function raw(sb: TestSandbox, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const url = new URL(sb.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('which pages may read the answers', () => {
  it('a page of another site gets no CORS header; a page on localhost gets its own origin echoed', async () => {
    const sb = await startTestSandbox();
    const evil = await raw(sb, '/', { headers: { accept: BROWSER_ACCEPT, origin: 'https://evil.example' } });
    expect(evil.status).toBe(200);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(evil.headers['vary']).toBe('Accept, Origin');
    const init = await raw(sb, `/api/1.3/?type=init&name=${encodeURIComponent(sb.info.app.name)}&ownerid=${sb.info.app.ownerid}`, { headers: { origin: 'https://evil.example' } });
    expect(init.headers['access-control-allow-origin']).toBeUndefined();
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080', 'http://app.localhost:3000']) {
      const local = await raw(sb, '/', { headers: { accept: BROWSER_ACCEPT, origin } });
      expect(local.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(local.headers['vary']).toBe('Accept, Origin');
    }
    // No Origin (a program, not a page): no CORS header is needed, none is sent.
    expect((await raw(sb, '/')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('--cors ORIGIN adds that origin, and grants it Private Network Access; --cors * answers every page', async () => {
    const named = await startTestSandbox({ cors: ['https://app.example.test'] });
    const listed = await raw(named, '/', { headers: { origin: 'https://app.example.test' } });
    expect(listed.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect((await raw(named, '/', { headers: { origin: 'https://other.example.test' } })).headers['access-control-allow-origin']).toBeUndefined();
    const granted = await raw(named, '/api/1.3/', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.test', 'access-control-request-method': 'POST', 'access-control-request-private-network': 'true' },
    });
    expect(granted.status).toBe(204);
    expect(granted.headers['access-control-allow-private-network']).toBe('true');
    const every = await startTestSandbox({ cors: ['*'] });
    expect((await raw(every, '/', { headers: { origin: 'https://anywhere.example' } })).headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a Private Network Access preflight from a page --cors does not name', async () => {
    const sb = await startTestSandbox();
    const preflight = await raw(sb, '/api/1.3/', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-private-network': 'true' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-private-network']).toBeUndefined();
    expect(preflight.text).toContain('--cors');
    // An ordinary preflight from a local page still passes.
    const local = await raw(sb, '/api/1.3/', { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } });
    expect(local.status).toBe(204);
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});

describe('which host names are answered', () => {
  it('a rebinding page (another site\'s name resolved to 127.0.0.1) gets 421 and nothing of the app', async () => {
    const sb = await startTestSandbox();
    for (const host of ['rebind.evil.example', `rebind.evil.example:${new URL(sb.baseUrl).port}`, '10.0.0.1', 'localhost.evil.example']) {
      const home = await raw(sb, '/', { headers: { host, accept: BROWSER_ACCEPT } });
      expect(home.status, host).toBe(421);
      expect(home.text).not.toContain(sb.info.app.ownerid);
      expect(home.text).not.toContain(sb.info.app.name);
    }
    const api = await raw(sb, `/api/1.3/?type=init&name=${encodeURIComponent(sb.info.app.name)}&ownerid=${sb.info.app.ownerid}`, { headers: { host: 'rebind.evil.example' } });
    expect(api.status).toBe(421);
    expect(JSON.parse(api.text)).toMatchObject({ success: false });
    expect(api.text).not.toContain('sessionid');
  });

  it('answers its loopback names and addresses, the bound address, and the hosted names (keyauth-js sends Host: keyauth.win)', async () => {
    const sb = await startTestSandbox();
    const port = new URL(sb.baseUrl).port;
    for (const host of ['127.0.0.1', `127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST.', `[::1]:${port}`, 'kactl.localhost', '127.0.0.2']) {
      expect((await raw(sb, '/', { headers: { host, accept: BROWSER_ACCEPT } })).status, host).toBe(200);
    }
    // keyauth-js (axios) posts its form with Host: keyauth.win to any base URL.
    const form = new URLSearchParams({ type: 'init', name: sb.info.app.name, ownerid: sb.info.app.ownerid, ver: sb.info.app.version }).toString();
    for (const host of ['keyauth.win', 'prod.keyauth.com', 'keyauth.cc']) {
      const init = await raw(sb, '/api/1.3/', { method: 'POST', headers: { host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) }, body: form });
      expect(init.status, host).toBe(200);
      expect(JSON.parse(init.text)).toMatchObject({ success: true });
    }
  });

  it('answers the customer panel URL\'s host', async () => {
    const sb = await startTestSandbox({ panelUrl: 'https://panel.example.test' });
    expect((await raw(sb, '/', { headers: { host: 'panel.example.test', accept: BROWSER_ACCEPT } })).status).toBe(200);
    expect((await raw(sb, '/', { headers: { host: 'other.example.test', accept: BROWSER_ACCEPT } })).status).toBe(421);
  });
});
