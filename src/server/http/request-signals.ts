/**
 * The abort signal of each request, made on first use: only handlers that call out (webhook,
 * file, the log hook) need one, and most requests never ask. It aborts when the client goes away
 * before the answer, or on a forced shutdown. Not `AbortSignal.any` with a server-wide signal:
 * on Node 20 every such call leaves a reference on the long-lived signal, so memory grew with
 * every request.
 */
import type { ServerResponse } from 'node:http';

export class RequestSignals {
  private readonly made = new WeakMap<ServerResponse, AbortSignal>();
  /** The controllers of requests in flight that asked for a signal; a forced shutdown aborts them. */
  private readonly abortable = new Set<AbortController>();
  private forced = false;

  signalFor(res: ServerResponse): AbortSignal {
    const made = this.made.get(res);
    if (made !== undefined) return made;
    const controller = new AbortController();
    this.made.set(res, controller.signal);
    if (this.forced || (res.closed && !res.writableFinished)) {
      controller.abort();
    } else if (!res.closed) {
      this.abortable.add(controller);
      // 'close' also follows every answered request: aborting then would build a DOMException
      // (with its stack) per request for nobody to read.
      res.once('close', () => {
        this.abortable.delete(controller);
        if (!res.writableFinished) controller.abort();
      });
    }
    return controller.signal;
  }

  /** A forced shutdown: every live signal aborts, and any made later is born aborted. */
  abortAll(): void {
    this.forced = true;
    for (const controller of this.abortable) controller.abort();
  }
}
