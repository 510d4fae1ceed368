/**
 * Sends a StreamedBody, waiting for the socket to drain between pieces so at most a few pieces
 * are buffered however large the body is. A client that goes away stops the sending.
 */
import type { ServerResponse } from 'node:http';
import type { StreamedBody } from './streamed-body.js';

export function writeStreamed(res: ServerResponse, body: StreamedBody): void {
  void (async () => {
    for (const chunk of body.chunks()) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    if (!res.destroyed) res.end();
  })()
    .catch(() => res.destroy())
    .finally(() => body.finished());
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
