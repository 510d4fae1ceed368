/**
 * How `kactl sandbox logs` prints the request inspector's records: one compact line each for
 * people (time, outcome, status, API and type, user, and why), NDJSON or JSON for machines. On a
 * terminal of known width a long reason wraps at spaces under itself; piped, a line stays whole.
 */
import { Chalk } from 'chalk';
import { stripControl } from '../../io/format.js';
import { wrapWords } from '../../io/wrap.js';
import type { LoggedRequest } from '../../api/sandbox-admin.js';

/** A record as GET /sandbox/requests gives it (src/server/http/requests-endpoint.ts). */
export type LogRecord = LoggedRequest;

export type LogFormat = 'lines' | 'ndjson' | 'json';

export interface LineOptions {
  readonly color: boolean;
  /** "Now" in ms: a record of another day shows its date. */
  readonly now: number;
  /** The terminal's width: the reason wraps at spaces to fit. Undefined: no wrapping (piped). */
  readonly width?: number | undefined;
}

/** The reason's continuation lines start here at least, and the reason gets this much room at least. */
const MIN_REASON_WIDTH = 24;
const NARROW_INDENT = 4;

/**
 * A refusal the tester met. A record from a sandbox older than the `failed` field is judged as
 * that sandbox did: `success:false` or an HTTP error.
 */
export function isFailedRecord(record: LogRecord): boolean {
  const failed = (record as Partial<LogRecord>).failed;
  return typeof failed === 'boolean' ? failed : record.success === false || record.status >= 400;
}

/**
 * `12:04:05  ✗ 200  1.3 login            alice         wrong password for alice`, with
 * `[fault #2 tamper]` before the reason when a fault changed the answer. `·` marks what is no
 * refusal though the wire says `success:false`: an empty list, and kactl's own probes.
 */
export function logLine(record: LogRecord, options: LineOptions): string {
  const paint = new Chalk({ level: options.color ? 1 : 0 });
  const failed = isFailedRecord(record);
  const aside = record.empty === true || record.probe === true;
  const mark = failed ? paint.red('✗') : aside ? paint.dim('·') : paint.green('✓');
  // No status reached the client: a reset, or a delay it gave up on (the reason says which).
  const statusText = record.status === 0 ? '---' : String(record.status);
  const status = record.status === 429 ? paint.yellow(statusText) : failed ? paint.red(statusText) : statusText;
  const what = clean(`${record.api} ${record.type ?? `${record.method} ${record.path}`}`).padEnd(20);
  const user = clean(record.user ?? '-').padEnd(12);
  const time = when(record.time, options.now);
  const headWidth = [...`${time}  ✗ ${statusText}  ${what} ${user} `].length;
  // A faulted answer says so first: what the client saw is not what the sandbox decided.
  const fault = record.fault === null || record.fault === undefined ? '' : `[fault ${clean(record.fault)}]`;
  const why = [fault, record.probe === true ? "(kactl's own check)" : '', clean(record.reason ?? record.message ?? ''), record.empty === true ? '(an empty list)' : '']
    .filter((part) => part !== '')
    .join(' ');
  const style = (text: string): string => (failed ? text : paint.dim(text));
  const lines = wrapped(why, headWidth, options.width).map((piece, index) => {
    const painted = index === 0 && fault !== '' && piece.startsWith(fault) ? `${paint.magenta(fault)}${style(piece.slice(fault.length))}` : style(piece.trimStart());
    return index === 0 ? `${time}  ${mark} ${status}  ${what} ${paint.cyan(user)} ${painted}` : `${piece.slice(0, piece.length - piece.trimStart().length)}${painted}`;
  });
  return lines.map((line) => line.trimEnd()).join('\n');
}

/**
 * The reason in pieces: the first goes after the head, the rest under it (or under a short indent
 * on a narrow terminal), each breaking only at spaces. One piece when the width is unknown.
 */
function wrapped(why: string, headWidth: number, width: number | undefined): string[] {
  if (width === undefined || headWidth + [...why].length <= width) return [why];
  const indent = width - headWidth < MIN_REASON_WIDTH ? NARROW_INDENT : headWidth;
  const lines = wrapWords(why, width, ' '.repeat(headWidth), ' '.repeat(indent));
  return lines.map((line, index) => (index === 0 ? line.slice(headWidth) : line));
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
