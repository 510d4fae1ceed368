/**
 * Waiting until sockets are really gone: a socket's 'close' comes before Node frees what sits
 * under it (a TLS socket's state, a listening socket's handle), each one loop turn later. So
 * whoever must leave no handle open once it resolves (the library's `close()`, as
 * `process.getActiveResourcesInfo()`, jest and `node --test` see it) waits for every 'close' and
 * then lets the loop turn as often as it needs. The loop turns with node:timers' own
 * setImmediate, not the global a test's fake timers replace.
 */
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers';

export async function socketsClosed(sockets: Iterable<Socket>, turns: number): Promise<void> {
  const open = [...sockets].filter((socket) => !socket.closed);
  await Promise.all(open.map((socket) => new Promise((resolve) => socket.once('close', resolve))));
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => nextTurn(resolve));
}
