/**
 * Issue 9 item 3 (part): file downloads are capped per sandbox. The origin here holds its
 * answers until the test lets them go, so "at once" needs no timing.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { createFile } from '../../../src/server/domain/files.js';
import { registerUser } from '../support/client-fixtures.js';

const held: http.ServerResponse[] = [];
let arrived: () => void = () => undefined;
const origin = http.createServer((_req, res) => {
  held.push(res);
  arrived();
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

describe('concurrent file downloads', () => {
  it('a third download while two are in flight is refused at once; the two complete', async () => {
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/big.bin`;
    const sb = await startTestSandbox();
    const fileid = createFile(sb.store, sb.app().id, { url, size: '2 B' }, Math.floor(Date.now() / 1000)).id;
    const { sid } = await registerUser(sb);
    const twoArrived = new Promise<void>((resolve) => {
      arrived = () => {
        if (held.length === 2) resolve();
      };
    });
    const first = sb.client('file', { sessionid: sid, fileid });
    const second = sb.client('file', { sessionid: sid, fileid });
    await twoArrived;
    const third = await sb.client('file', { sessionid: sid, fileid });
    expect(third.json).toMatchObject({ success: false, message: 'Too many file downloads at once, try again in a few seconds.' });
    for (const res of held) res.end(Buffer.from([0xca, 0xfe]));
    expect((await first).json).toMatchObject({ success: true, contents: 'cafe' });
    expect((await second).json).toMatchObject({ success: true, contents: 'cafe' });
  });
});

describe('a download keeps its slot until its answer is sent', () => {
  const big = Buffer.alloc(12 * 1024 * 1024, 0xab);
  const bigOrigin = http.createServer((_req, res) => res.end(big));
  afterAll(() => new Promise<void>((resolve) => bigOrigin.close(() => resolve())));

  /** A client that reads the first bytes of the answer and then stops reading. */
  function stalledClient(baseUrl: string, pathAndQuery: string): Promise<net.Socket> {
    const { port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  it('two answers still being written to clients that stopped reading fill the cap; closing them frees it', async () => {
    await new Promise<void>((resolve) => bigOrigin.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(bigOrigin.address() as AddressInfo).port}/big.bin`;
    const sb = await startTestSandbox({ rateLimit: false });
    const fileid = createFile(sb.store, sb.app().id, { url, size: '12 MB', authed: false }, Math.floor(Date.now() / 1000)).id;
    const sid = await sb.init();
    const query = `/api/1.3/?${new URLSearchParams({ type: 'file', name: sb.app().name, ownerid: sb.app().ownerid, sessionid: sid, fileid }).toString()}`;
    // The 24 MB hex answer is far more than the loopback socket buffers hold, so the sandbox is
    // still writing each one when its first bytes arrive here.
    const stalled = [await stalledClient(sb.baseUrl, query), await stalledClient(sb.baseUrl, query)];
    expect((await sb.client('file', { sessionid: sid, fileid })).json).toMatchObject({ success: false, message: 'Too many file downloads at once, try again in a few seconds.' });
    for (const socket of stalled) socket.destroy();
    await expect.poll(async () => (await sb.client('file', { sessionid: sid, fileid })).json.success === true, { timeout: 20_000, interval: 100 }).toBe(true);
  });
});
