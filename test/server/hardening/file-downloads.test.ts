/**
 * Issue 9 item 3 (part): file downloads are capped per sandbox. The origin here holds its
 * answers until the test lets them go, so "at once" needs no timing.
 */
import http from 'node:http';
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
