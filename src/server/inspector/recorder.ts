/**
 * The request inspector: every request the sandbox serves becomes a record (record.ts), kept
 * in the store (records.ts) up to a limit (`sandbox start --log-limit`, default 10,000; 0 keeps
 * none and records nothing). Recording costs the request path little: what the stages learned
 * is kept by reference; the records are made (masked, cut, worded) and written in one
 * transaction a short while later (FLUSH_MS), at once when the buffer grows large, before a
 * read, and at close. Live readers (follower.ts) get each record as it is served, made at once
 * only while one follows; at most MAX_FOLLOWERS follow at a time.
 */
import type { Store } from '../store/store.js';
import { Follower, type FollowerLimits, type FollowerSocket } from './follower.js';
import { matches, type RecordFilter } from './filter.js';
import { makeRecord, type RecordSource } from './record.js';
import { lastRecordId, recordsNewestFirst, recordsOldestFirst, trimRecords, writeRecords, type RequestRecord } from './records.js';

export const DEFAULT_LOG_LIMIT = 10_000;
/** How long a record may wait in memory before its batch is written. */
const FLUSH_MS = 250;
/** A buffer this large is written at once. */
const FLUSH_AT = 1_000;
/** A live reader gets a keep-alive comment this often. */
const HEARTBEAT_MS = 15_000;
/** Live readers at once; one more is refused (each may hold up to its unread budget). */
export const MAX_FOLLOWERS = 32;
/** Default limits of a live reader: 1 MiB behind, or a minute reading nothing of what waits. */
const FOLLOWER_LIMITS: FollowerLimits = { maxUnreadBytes: 1024 * 1024, stallMs: 60_000 };

/** A record not made yet (what the stages learned), or made already for a live reader. */
type Buffered = { readonly id: number; readonly source: RecordSource } | RequestRecord;

export interface RecorderOptions {
  /** Records kept (the newest); 0 records nothing. */
  readonly limit: number;
  readonly log: (line: string) => void;
  /** Tests: shorter waits, smaller limits. */
  readonly flushMs?: number;
  readonly heartbeatMs?: number;
  readonly maxFollowers?: number;
  readonly followerLimits?: Partial<FollowerLimits>;
}

export class RequestRecorder {
  readonly limit: number;
  private nextId: number;
  private buffer: Buffered[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly followers = new Set<Follower>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: RecorderOptions,
  ) {
    this.limit = options.limit;
    const last = lastRecordId(store);
    // A smaller limit than the last run's (or 0) applies to what is already kept.
    trimRecords(store, last, this.limit);
    this.nextId = last + 1;
  }

  /** Whether requests are recorded now. */
  get recording(): boolean {
    return this.limit > 0 && !this.closed;
  }

  /** Keeps the request's source; its record is made with the batch, or now when someone follows. */
  record(source: RecordSource): void {
    if (!this.recording) return;
    const id = this.nextId++;
    if (this.followers.size === 0) this.buffer.push({ id, source });
    else {
      const record = makeRecord(id, source);
      this.buffer.push(record);
      for (const follower of this.followers) follower.offer(record);
    }
    if (this.buffer.length >= FLUSH_AT) this.flush();
    else this.flushTimer ??= unref(setTimeout(() => this.flush(), this.options.flushMs ?? FLUSH_MS));
  }

  /** Writes what is buffered, in one transaction. A failure (a full disk) drops the batch and says so. */
  flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    try {
      writeRecords(this.store, batch.map((entry) => ('source' in entry ? makeRecord(entry.id, entry.source) : entry)), this.limit);
    } catch (error) {
      this.options.log(`request inspector: ${batch.length} records could not be stored: ${(error as Error).message}`);
    }
  }

  /**
   * The matching records, oldest first: the newest `limit` of them, or with `after` the first
   * `limit` after that id.
   */
  list(filter: RecordFilter, options: { limit: number; after?: number | undefined }): RequestRecord[] {
    this.flush();
    const found: RequestRecord[] = [];
    if (options.limit <= 0) return found;
    if (options.after !== undefined) {
      for (const record of recordsOldestFirst(this.store, options.after)) {
        if (matches(record, filter) && found.push(record) >= options.limit) break;
      }
      return found;
    }
    for (const record of recordsNewestFirst(this.store)) {
      if (matches(record, filter) && found.push(record) >= options.limit) break;
    }
    return found.reverse();
  }

  /** Whether another live reader may follow now. */
  get mayFollow(): boolean {
    return this.followers.size < (this.options.maxFollowers ?? MAX_FOLLOWERS);
  }

  /** A live reader of the matching records made from now on; `backlog` is sent first. Ask `mayFollow` first. */
  follow(filter: RecordFilter, backlog: readonly RequestRecord[], socket?: FollowerSocket): Follower {
    const follower = new Follower(filter, { ...FOLLOWER_LIMITS, ...this.options.followerLimits }, socket);
    for (const record of backlog) follower.offer(record);
    if (this.closed) {
      follower.end('the sandbox is stopping');
      return follower;
    }
    this.followers.add(follower);
    follower.stream.once('close', () => this.unfollow(follower));
    this.heartbeatTimer ??= unref(setInterval(() => this.heartbeat(), this.options.heartbeatMs ?? HEARTBEAT_MS));
    return follower;
  }

  /** Ends every live reader's stream (the sandbox is stopping): shutdown never waits on one. */
  endFollowers(): void {
    for (const follower of this.followers) follower.end('the sandbox is stopping');
    this.followers.clear();
    this.stopHeartbeat();
  }

  /** Ends the readers, writes the last batch, stops recording. Safe to call twice. */
  close(): void {
    this.endFollowers();
    this.flush();
    this.closed = true;
  }

  private heartbeat(): void {
    const now = Date.now();
    for (const follower of this.followers) follower.heartbeat(now);
  }

  private unfollow(follower: Follower): void {
    this.followers.delete(follower);
    if (this.followers.size === 0) this.stopHeartbeat();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer !== undefined) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }
}

function unref<T extends NodeJS.Timeout>(timer: T): T {
  timer.unref();
  return timer;
}
