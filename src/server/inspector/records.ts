/**
 * The request inspector's records in the store (schema v6, `request_log`; `fault` from v8,
 * `delivery` and `probe` from v9): what one record holds, writing a batch of them in one
 * transaction with the oldest trimmed past the limit, and reading them newest first.
 */
import type { LoggedRequest, RequestApi, RequestDelivery } from '../../api/sandbox-admin.js';
import type { SqlValue, Store } from '../store/store.js';

/**
 * The part of the sandbox a request was for. `other`: a path the sandbox does not serve. The
 * record's fields are declared once, by the admin route's client (src/api/sandbox-admin.ts:
 * what `kactl sandbox logs` and kactl/sandbox's `logs()` read), so the two cannot drift apart.
 */
export type RecordApi = RequestApi;
export const RECORD_APIS: readonly RecordApi[] = ['1.3', '1.2', 'seller', 'page', 'admin', 'other'];

/** The admin route's fields worked out from the others when a record is read (derived.ts), never stored. */
export type DerivedField = 'faultId' | 'faultKind' | 'empty' | 'failed';

/**
 * One request as recorded; secrets already masked (record.ts): the admin route's record, with
 * `at` (real time, ms since the epoch) for its time, less what is derived from it.
 */
export type RequestRecord = { readonly id: number; readonly at: number } & Omit<LoggedRequest, 'id' | 'time' | DerivedField>;

/** A record as the admin route and its events send it (follower.ts `recordJson`): the time as ISO 8601. */
export type RequestRecordJson = LoggedRequest;

interface Row {
  id: number;
  at: number;
  api: RecordApi;
  type: string | null;
  method: string;
  path: string;
  ip: string;
  user: string | null;
  params: string;
  status: number;
  success: number | null;
  message: string | null;
  reason: string | null;
  durationMs: number;
  fault: string | null;
  /** Null for `answer`. */
  delivery: Exclude<RequestDelivery, 'answer'> | null;
  /** 1 for a probe, else null. */
  probe: number | null;
}

const COLUMNS = ['id', 'at', 'api', 'type', 'method', 'path', 'ip', 'user', 'params', 'status', 'success', 'message', 'reason', 'durationMs', 'fault', 'delivery', 'probe'] as const;
/** Rows per INSERT: one statement for many rows costs far less per row than one per row. */
const ROWS_PER_INSERT = 50;
const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(', ')})`;

function insertSql(rows: number): string {
  return `INSERT INTO request_log (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => ROW_PLACEHOLDERS).join(', ')}`;
}
const FULL_INSERT = insertSql(ROWS_PER_INSERT);

/** Writes the records in one transaction, then keeps only the newest `limit`. */
export function writeRecords(store: Store, records: readonly RequestRecord[], limit: number): void {
  if (records.length === 0) return;
  store.tx(() => {
    for (let start = 0; start < records.length; start += ROWS_PER_INSERT) {
      const chunk = records.slice(start, start + ROWS_PER_INSERT);
      const values: SqlValue[] = [];
      for (const r of chunk) {
        const delivery = r.delivery === 'answer' ? null : r.delivery;
        values.push(r.id, r.at, r.api, r.type, r.method, r.path, r.ip, r.user, JSON.stringify(r.params), r.status, r.success === null ? null : r.success ? 1 : 0, r.message, r.reason, r.durationMs, r.fault, delivery, r.probe ? 1 : null);
      }
      // The statement for a full chunk is prepared once; the last, shorter one per its length (at most 49 texts).
      store.run(chunk.length === ROWS_PER_INSERT ? FULL_INSERT : insertSql(chunk.length), ...values);
    }
    trimRecords(store, records[records.length - 1]!.id, limit);
  });
}

/** Drops every record but the newest `limit` up to `lastId` (0: all of them). */
export function trimRecords(store: Store, lastId: number, limit: number): void {
  store.run('DELETE FROM request_log WHERE id <= ?', lastId - limit);
}

/** The highest id ever given (trimmed records included), 0 on a new store. */
export function lastRecordId(store: Store): number {
  const seq = store.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'request_log'")?.seq ?? 0;
  const max = store.get<{ id: number | null }>('SELECT MAX(id) AS id FROM request_log')?.id ?? 0;
  return Math.max(seq, max);
}

/**
 * How many rows a read takes at a time. Pages through `all`, not `iterate`: an iterator is a
 * better-sqlite3 object made per call, which this process would have to keep for its whole life
 * (native-handles.ts), and a log followed for hours makes one a poll.
 */
const PAGE_ROWS = 200;

/** Records newest first, from just before `before` (exclusive) down; stop reading by leaving the loop. */
export function recordsNewestFirst(store: Store, before = Number.MAX_SAFE_INTEGER): Generator<RequestRecord> {
  return inPages(store, 'SELECT * FROM request_log WHERE id < ? ORDER BY id DESC LIMIT ?', before);
}

/** Records oldest first, after `after` (exclusive). */
export function recordsOldestFirst(store: Store, after: number): Generator<RequestRecord> {
  return inPages(store, 'SELECT * FROM request_log WHERE id > ? ORDER BY id LIMIT ?', after);
}

/** The records of `sql` (bound by an id, then a row count), each page going on from the last id of the one before. */
function* inPages(store: Store, sql: string, from: number): Generator<RequestRecord> {
  for (let bound = from; ; ) {
    const rows = store.all<Row>(sql, bound, PAGE_ROWS);
    for (const row of rows) yield fromRow(row);
    if (rows.length < PAGE_ROWS) return;
    bound = rows[rows.length - 1]!.id;
  }
}

function fromRow(row: Row): RequestRecord {
  let params: Record<string, string> = {};
  try {
    params = JSON.parse(row.params) as Record<string, string>;
  } catch {
    // A row written by hand; its other fields still show.
  }
  return { ...row, params, success: row.success === null ? null : row.success === 1, delivery: row.delivery ?? 'answer', probe: row.probe === 1 };
}
