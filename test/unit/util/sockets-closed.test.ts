/**
 * util/sockets-closed.ts and its callers: a close that must leave no handle behind resolves only
 * after every socket's 'close', though `socket.closed` turns true at the moment of destroy().
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeAgents } from '../../../src/api/node-request.js';
import { socketsClosed } from '../../../src/util/sockets-closed.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function keepAliveServer(): Promise<URL> {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

describe('socketsClosed', () => {
  it("waits for the 'close' of a socket destroyed after the call, and then for the loop to turn", async () => {
    const url = await keepAliveServer();
    const socket = await new Promise<Socket>((resolve) => {
      const req = http.get(url, { agent: new http.Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', () => resolve(req.socket!));
      });
    });
    const order: string[] = [];
    socket.on('close', () => order.push('close'));
    const done = socketsClosed([socket], 2).then(() => order.push('resolved'));
    socket.destroy();
    expect(socket.closed).toBe(true);
    await done;
    expect(order).toEqual(['close', 'resolved']);
  });
});

describe('NodeAgents.close', () => {
  it("resolves only after every socket it kept alive has sent 'close'", async () => {
    const url = await keepAliveServer();
    const agents = new NodeAgents({ keepAliveMs: 30_000 });
    const client = await agents.client(url);
    const sockets: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        // Three at once would open three sockets; one after another reuse the kept one.
        const req = client.request(url, { agent: client.agent }, (res) => res.resume().on('end', () => resolve()));
        req.on('socket', (socket: Socket) => {
          if (!sockets.includes(socket)) sockets.push(socket);
        });
        req.on('error', reject).end();
      });
    }
    expect(sockets).toHaveLength(1);
    let closes = 0;
    for (const socket of sockets) socket.on('close', () => (closes += 1));
    await agents.close();
    expect(closes).toBe(sockets.length);
  });
});
