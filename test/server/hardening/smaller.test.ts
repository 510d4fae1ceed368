/**
 * Issue 9 item 9: seller-key guesses are limited per client IP (not per guessed key), and a
 * request without a Host header gets the error shape instead of node's empty 400.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';

describe('seller-key guessing', () => {
  // The refusal takes the mode's rate-limit form: the hosted 200 by default, 429 when spec-strict.
  for (const [failureStatus, status] of [[200, 200], [400, 429]] as const) {
    it(`is limited per client IP: after 10 wrong keys in a minute even the right key is refused from that IP (failure status ${failureStatus})`, async () => {
      const sb = await startTestSandbox({ rateLimit: true, trustProxy: true, failureStatus });
      const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
      const guess = (n: number) => `${String(n).padStart(32, '0')}`;
      for (let i = 0; i < 10; i++) {
        expect((await sb.request(`/api/seller/?sellerkey=${guess(i)}&type=info`, from('203.0.113.7'))).json.message).toBe('No application found');
      }
      const refused = await sb.request(`/api/seller/?sellerkey=${sb.info.sellerKey}&type=fetchallkeys`, from('203.0.113.7'));
      expect(refused.status).toBe(status);
      expect(refused.json).toMatchObject({ success: false, message: 'Too many wrong seller keys from your address. Try again in 1 minute.' });
      // Another address is not affected.
      const other = await sb.request(`/api/seller/?sellerkey=${sb.info.sellerKey}&type=add&expiry=1`, from('198.51.100.9'));
      expect(other.json).toMatchObject({ success: true, message: 'License Successfully Generated' });
    });
  }
});

describe('a request without Host', () => {
  it('gets a 400 in the error shape', async () => {
    const sb = await startTestSandbox();
    const { port } = new URL(sb.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET /api/1.3/?type=init HTTP/1.1\r\nConnection: close\r\n\r\n');
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toMatchObject({ success: false, message: 'Malformed HTTP request' });
  });
});
