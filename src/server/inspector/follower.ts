/**
 * One reader following the records live (`GET /sandbox/requests?follow=1`): a stream of
 * server-sent events the answer stage pipes to the socket. Each record is an event
 * `request` with its id (a reconnecting reader sends it back as `Last-Event-ID`); a comment line
 * keeps the connection alive; `end` says the sandbox is stopping, then the stream ends.
 */
import { Readable } from 'node:stream';
import { matches, type RecordFilter } from './filter.js';
import type { RequestRecord, RequestRecordJson } from './records.js';

/** A reader that lets this much pile up unread is dropped. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

/** A record as the admin route and its events show it: the time as ISO 8601. */
export function recordJson(record: RequestRecord): RequestRecordJson {
  const { id, at, ...rest } = record;
  return { id, time: new Date(at).toISOString(), ...rest };
}

export class Follower {
  readonly stream: Readable;
  private ended = false;

  constructor(private readonly filter: RecordFilter) {
    // Nothing to pull: events are pushed as requests are served.
    this.stream = new Readable({ read: () => undefined });
    this.stream.once('close', () => {
      this.ended = true;
    });
    // node sends the headers with the first body bytes: a reader would otherwise wait for them
    // until the first record or keep-alive.
    this.stream.push(': following the request log\n\n');
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Sends the record when it passes the reader's filter. */
  offer(record: RequestRecord): void {
    if (this.ended || !matches(record, this.filter)) return;
    if (this.stream.readableLength > MAX_UNREAD_BYTES) {
      this.end('this reader fell too far behind; reconnect with Last-Event-ID to catch up');
      return;
    }
    this.stream.push(`id: ${record.id}\nevent: request\ndata: ${JSON.stringify(recordJson(record))}\n\n`);
  }

  /** A comment line: keeps proxies and the reader's idle timeout from closing the connection. */
  heartbeat(): void {
    if (!this.ended) this.stream.push(': keep-alive\n\n');
  }

  /** An `end` event saying why, then the end of the stream. */
  end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stream.push(`event: end\ndata: ${JSON.stringify({ message: why })}\n\n`);
    this.stream.push(null);
  }
}
