/**
 * How `kactl sandbox logs` prints the request inspector's records: one compact line each for
 * people (time, outcome, status, API and type, user, and why), NDJSON or JSON for machines.
 */
import { Chalk } from 'chalk';
import { stripControl } from '../../io/format.js';
import type { LoggedRequest } from '../../api/sandbox-admin.js';

/** A record as GET /sandbox/requests gives it (src/server/http/requests-endpoint.ts). */
export type LogRecord = LoggedRequest;

export type LogFormat = 'lines' | 'ndjson' | 'json';

export interface LineOptions {
  readonly color: boolean;
  /** "Now" in ms: a record of another day shows its date. */
  readonly now: number;
}

/**
 * `12:04:05  ✗ 200  1.3 login            alice         wrong password for alice`, with
 * `[fault #2 tamper]` before the reason when a fault changed the answer.
 */
export function logLine(record: LogRecord, options: LineOptions): string {
  const paint = new Chalk({ level: options.color ? 1 : 0 });
  const failed = record.success === false || record.status >= 400;
  const mark = failed ? paint.red('✗') : paint.green('✓');
  const status = record.status === 429 ? paint.yellow(String(record.status)) : failed ? paint.red(String(record.status)) : String(record.status);
  const what = `${record.api} ${record.type ?? `${record.method} ${record.path}`}`;
  const user = record.user ?? '-';
  const why = record.reason ?? record.message ?? '';
  // A faulted answer says so first: what the client saw is not what the sandbox decided.
  const fault = record.fault === null || record.fault === undefined ? '' : `${paint.magenta(`[fault ${clean(record.fault)}]`)} `;
  const line = `${when(record.time, options.now)}  ${mark} ${status}  ${clean(what).padEnd(20)} ${paint.cyan(clean(user).padEnd(12))} ${fault}${failed ? clean(why) : paint.dim(clean(why))}`;
  return line.trimEnd();
}

/** Local `HH:MM:SS`, with the date when it is not today's. */
function when(iso: string, now: number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const today = new Date(now);
  const sameDay = date.getFullYear() === today.getFullYear() && date.getMonth() === today.getMonth() && date.getDate() === today.getDate();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** Values come from clients: no control characters, one line. */
function clean(text: string): string {
  return stripControl(text).replace(/[\t\r\n]+/g, ' ');
}
