/**
 * `multipart/form-data` bodies (what the official PHP example posts) are read like urlencoded
 * forms on 1.2, 1.3 and the seller API, under the same 1 MiB cap; broken ones get a 400.
 * On the old code every case here answered 415.
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** A hand-written multipart body (what fetch's FormData would not produce). */
function rawMultipart(boundary: string, parts: string[]): string {
  return `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`;
}

async function post(sb: TestSandbox, path: string, body: FormData | string, contentType?: string) {
  return sb.request(path, { method: 'POST', body, ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }) });
}

describe('multipart/form-data bodies', () => {
  it('init and login on 1.3 (signed) and 1.2, sent as FormData', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const init13 = await post(sb, '/api/1.3/', form({ type: 'init', name, ownerid, ver: '1.0' }));
    expect(init13.status, init13.text).toBe(200);
    expect(init13.json.success).toBe(true);
    expect(sb.verify13(init13)).toBe(true);

    const init12 = await post(sb, '/api/1.2/', form({ type: 'init', name, ownerid, ver: '1.0' }));
    expect(init12.json.success).toBe(true);
    const sessionid = init12.json.sessionid as string;
    const register = await post(sb, '/api/1.2/', form({ type: 'register', name, ownerid, sessionid, username: 'multi', pass: 'pässwörd', key: 'nope' }));
    expect(register.json.success).toBe(false);
    expect(register.json.message).toMatch(/key/i);
  });

  it('the seller API reads a multipart body, and the query still adds parameters', async () => {
    const sb = await startTestSandbox();
    const res = await post(sb, '/api/seller/?format=json', form({ sellerkey: sb.info.sellerKey, type: 'add', expiry: '3', amount: '2', level: '1', mask: '******-******' }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.keys).toHaveLength(2);
    const keys = await sb.seller('fetchallkeys');
    expect(keys.json.keys.length).toBeGreaterThanOrEqual(2);
  });

  it('file parts are not parameters; quoted boundaries and UTF-8 names work', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const body = rawMultipart('simple', [
      'Content-Disposition: form-data; name="type"\r\n\r\ninit',
      `Content-Disposition: form-data; name="name"\r\n\r\n${name}`,
      `Content-Disposition: form-data; name="ownerid"\r\nContent-Type: text/plain\r\n\r\n${ownerid}`,
      'Content-Disposition: form-data; name="type"; filename="type.txt"\r\nContent-Type: application/octet-stream\r\n\r\nbogus',
    ]);
    const res = await post(sb, '/api/1.3/', body, 'multipart/form-data; boundary="simple"');
    expect(res.json.success, res.text).toBe(true);
  });

  it('a multipart body over 1 MiB: 413, like a urlencoded one', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const res = await post(sb, '/api/1.3/', form({ type: 'init', name, ownerid, pad: 'z'.repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toBe('Request body too large');
    expect((await sb.client('init')).json.success).toBe(true);
  });

  it('broken multipart: no boundary, no closing delimiter, no disposition, bad UTF-8 → 400', async () => {
    const sb = await startTestSandbox();
    const message = 'Malformed multipart/form-data body';
    const good = 'Content-Disposition: form-data; name="type"\r\n\r\ninit';
    const cases: [string, string | Buffer][] = [
      ['multipart/form-data', rawMultipart('b', [good])],
      ['multipart/form-data; boundary=b', `--b\r\n${good}\r\n`],
      ['multipart/form-data; boundary=b', rawMultipart('b', ['Content-Type: text/plain\r\n\r\ninit'])],
      ['multipart/form-data; boundary=b', 'no delimiter at all'],
    ];
    for (const [type, body] of cases) {
      const res = await sb.request('/api/1.3/', { method: 'POST', body, headers: { 'content-type': type } });
      expect(res.status, `${type} ${String(body)}`).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toBe(message);
    }
    const badUtf8 = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n'), Buffer.from([0xc3, 0x28]), Buffer.from('\r\n--b--\r\n')]);
    const res = await sb.request('/api/1.3/', { method: 'POST', body: badUtf8, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('The request parameters are not valid UTF-8');
    expect((await sb.client('init')).json.success).toBe(true);
  });
});
