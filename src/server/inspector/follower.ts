/**
 * One reader following the records live (`GET /sandbox/requests?follow=1`): a stream of
 * server-sent events the answer stage pipes to the socket. Each record is an event
 * `request` with its id (a reader that reconnects sends it back as `Last-Event-ID`); a comment line
 * keeps the connection alive; `end` says the sandbox is stopping, then the stream ends.
 *
 * A reader costs the sandbox what it has not read yet, so it is bounded: one that falls more than
 * `maxUnreadBytes` behind (what waits in the stream plus what the socket holds unsent, its
 * `writableLength`), or that reads nothing for `stallMs` while something waits, is dropped and its
 * connection closed; it may reconnect with `Last-Event-ID` and miss nothing still kept.
 */
import { Readable } from 'node:stream';
import { recordJson } from './derived.js';
import { matches, type RecordFilter } from './filter.js';
import type { RequestRecord } from './records.js';

export { recordJson };

/** What a follower is allowed before it is dropped (recorder.ts sets them; tests make them small). */
export interface FollowerLimits {
  /** Bytes unread (queued in the stream and unsent on the socket) past which the reader is dropped. */
  readonly maxUnreadBytes: number;
  /** A reader with bytes waiting that reads none of them for this long is dropped. */
  readonly stallMs: number;
}

/** The socket under the reader's answer: its unsent bytes count against the reader, and it is closed when the reader is dropped. */
export interface FollowerSocket {
  readonly writableLength: number;
  destroy(): void;
}

export class Follower {
  readonly stream: Readable;
  private ended = false;
  /** Bytes pushed so far; what the reader took is that less `unread`. */
  private pushed = 0;
  /** What the reader had taken at the last heartbeat, and since when it has taken nothing while bytes wait. */
  private lastTaken = 0;
  private stalledSince: number | undefined;

  constructor(
    private readonly filter: RecordFilter,
    private readonly limits: FollowerLimits,
    private readonly socket: FollowerSocket | undefined,
  ) {
    // Nothing to pull: events are pushed as requests are served.
    this.stream = new Readable({ read: () => undefined });
    this.stream.once('close', () => {
      this.ended = true;
    });
    // node sends the headers with the first body bytes: a reader would otherwise wait for them
    // until the first record or keep-alive.
    this.push(': following the request log\n\n');
  }

  private push(text: string): void {
    this.pushed += Buffer.byteLength(text);
    this.stream.push(text);
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Bytes made for this reader that it has not read: queued in the stream, or unsent on the socket. */
  get unread(): number {
    return this.stream.readableLength + (this.socket?.writableLength ?? 0);
  }

  /** Sends the record when it passes the reader's filter. */
  offer(record: RequestRecord): void {
    if (this.ended || !matches(record, this.filter)) return;
    if (this.unread > this.limits.maxUnreadBytes) {
      this.drop('this reader fell too far behind; reconnect with Last-Event-ID to catch up');
      return;
    }
    this.push(`id: ${record.id}\nevent: request\ndata: ${JSON.stringify(recordJson(record))}\n\n`);
  }

  /**
   * A comment line: keeps proxies and the reader's idle timeout from closing the connection. A
   * reader that read nothing of what waits since the last heartbeats, for `stallMs`, is dropped.
   */
  heartbeat(now: number): void {
    if (this.ended) return;
    const unread = this.unread;
    const taken = this.pushed - unread;
    if (unread === 0 || taken > this.lastTaken) this.stalledSince = undefined;
    else this.stalledSince ??= now;
    this.lastTaken = taken;
    if (this.stalledSince !== undefined && now - this.stalledSince >= this.limits.stallMs) {
      this.drop('this reader read nothing for too long; reconnect with Last-Event-ID to catch up');
      return;
    }
    this.push(': keep-alive\n\n');
  }

  /** An `end` event saying why, then the end of the stream. */
  end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stream.push(`event: end\ndata: ${JSON.stringify({ message: why })}\n\n`);
    this.stream.push(null);
  }

  /** Ends the stream and closes the connection: what waits unread is let go at once. */
  private drop(why: string): void {
    this.end(why);
    this.stream.destroy();
    this.socket?.destroy();
  }
}
