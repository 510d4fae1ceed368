/**
 * Waiting until sockets are really gone: a socket's 'close' comes before Node frees what sits
 * under it (a TLS socket's state, a listening socket's handle), each one loop turn later. So
 * whoever must leave no handle open once it resolves (the library's `close()`, as
 * `process.getActiveResourcesInfo()`, jest and `node --test` see it) waits for every 'close' and
 * then lets the loop turn as often as it needs. The loop turns with node:timers' own
 * setImmediate, not the global a test's fake timers replace.
 *
 * It listens for 'close' when called, so call it before destroying the sockets, or pass only
 * sockets whose 'close' has not come yet (a set kept by 'close' listeners). `socket.closed`
 * cannot tell which are still closing: it is true from the moment `destroy()` is called, before
 * 'close' is sent.
 */
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers';

export function socketsClosed(sockets: Iterable<Socket>, turns: number): Promise<void> {
  const closes = [...sockets].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
  return (async () => {
    await Promise.all(closes);
    for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => nextTurn(resolve));
  })();
}
