/**
 * `kactl sandbox logs`: the requests the sandbox served and why each was refused, from its
 * request inspector (`GET /sandbox/requests`, admin token from the sandbox profile). A compact
 * line each on a terminal, NDJSON when piped or with `-o ndjson`, a JSON array with `-o json`.
 *
 * `--follow` streams new requests (server-sent events) until Ctrl-C, which exits 130 without a
 * word, as `tail -f` and `kubectl logs -f` end in a shell; when the sandbox stops, the stream
 * ends and the command exits 0. Followed with `-o json`, records come as NDJSON: a stream has no
 * end to close an array at.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import type { RequestApi, RequestLogFilter } from '../../api/sandbox-admin.js';
import { listSandboxRequests, requestsPath, sandboxAdminStream } from '../../api/sandbox-admin.js';
import { adminTarget, adminTokenOptions, type AdminTokenOptions } from './admin.js';
import type { LogFormat, LogRecord } from './log-lines.js';
import { serverSentEvents } from '../../api/server-sent-events.js';
import { logLine } from './log-lines.js';

interface LogsOptions extends AdminTokenOptions {
  follow?: boolean;
  type?: string;
  api?: string;
  failed?: boolean;
  user?: string;
  since?: string;
  limit?: number;
  after?: number;
}

const APIS = ['1.3', '1.2', 'seller', 'page', 'admin', 'other'];
const MAX_LIMIT = 10_000;
/** The sandbox sends a keep-alive every 15 s: this much silence means it is gone. */
const FOLLOW_IDLE_MS = 60_000;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function parseApis(raw: string): string {
  const unknown = raw.split(',').map((api) => api.trim()).filter((api) => api !== '' && !APIS.includes(api));
  if (unknown.length > 0) throw new InvalidArgumentError(`Give APIs among ${APIS.join(', ')} (comma-separated).`);
  return raw;
}

function parseLimit(raw: string): number {
  const limit = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new InvalidArgumentError(`Give a whole number from 1 to ${MAX_LIMIT}.`);
  return limit;
}

function parseRecordId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw.trim())) throw new InvalidArgumentError('Give a record id: a whole number.');
  return Number(raw);
}

/** `--since 10m` (s, m, h, d ago) or a date → ms since the epoch. */
function sinceMs(raw: string, now: number): number {
  const ago = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(raw.trim());
  if (ago) return now - Number(ago[1]) * UNIT_MS[ago[2]!]!;
  const date = /^\d{4}-\d{2}-\d{2}/.test(raw.trim()) ? Date.parse(raw.trim()) : NaN;
  if (Number.isNaN(date)) throw new UsageError(`--since takes a time ago such as 30s, 10m, 2h, 1d, or a date such as 2026-01-31T12:00; got "${raw}".`);
  return date;
}

function formatOf(ctx: Context): LogFormat {
  const format = ctx.globals.output;
  if (ctx.globals.json || format === 'json') return 'json';
  if (format === 'ndjson') return 'ndjson';
  if (format === 'csv' || format === 'tsv') throw new UsageError('kactl sandbox logs prints lines, NDJSON or JSON: use -o table, -o ndjson or -o json.');
  if (format === 'table') return 'lines';
  return ctx.io.isStdoutTTY ? 'lines' : 'ndjson';
}

/** The flags as the library's filter of the requests route (src/api/sandbox-admin.ts). */
function filterOf(ctx: Context, options: LogsOptions): RequestLogFilter {
  return {
    ...(options.type ? { type: options.type } : {}),
    ...(options.api ? { api: options.api.split(',').map((api) => api.trim()).filter((api) => api !== '') as RequestApi[] } : {}),
    ...(options.failed ? { failed: true } : {}),
    ...(options.user ? { user: options.user } : {}),
    ...(options.since ? { since: sinceMs(options.since, ctx.now()) } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.after !== undefined ? { after: options.after } : {}),
  };
}

export function registerSandboxLogs(group: Command, ctx: Context): void {
  adminTokenOptions(
    group
      .command('logs')
      .description('show the requests the sandbox served and why each was refused (--follow to stream them)')
      .option('-f, --follow', 'stream new requests as they are served, until Ctrl-C')
      .option('--type <types>', 'only these types, comma-separated (login,init,add…)')
      .option('--api <apis>', `only these APIs, comma-separated: ${APIS.join(', ')}`, parseApis)
      .option('--failed', 'only refusals: success:false, an HTTP error or no whole answer (not empty lists nor kactl\'s own checks)')
      .option('--user <username>', 'only requests about this end user')
      .option('--since <when>', 'only requests since then: 30s, 10m, 2h, 1d ago, or a date')
      .option('--limit <n>', `the newest N matching requests (default 100; with --follow, sent before the new ones); at most ${MAX_LIMIT}`, parseLimit)
      .option('--after <id>', 'only requests after this record id (the `id` of each record), oldest first', parseRecordId),
  )
    .addHelpText(
      'after',
      `
Each request shows its time, outcome, HTTP status, API and type, the end user,
and the reason the sandbox gave ("wrong password for alice", "HWID mismatch: …",
"session 7a… expired …"). A faulted answer shows what the client saw, [fault #N
kind] first: its status (--- when none reached it: a reset, a delay it gave up
on) and the sandbox's own answer after it. · marks an empty list and kactl's own
checks (client init's), which --failed leaves out. Secrets (passwords, keys,
session ids, codes, tokens, URL queries) are masked in every record. The sandbox
keeps the newest 10,000 requests by default (sandbox start --log-limit N; 0
records nothing).

Output: lines on a terminal (a long reason wrapped at spaces), NDJSON when piped
or with -o ndjson, a JSON array with -o json (NDJSON with --follow). --follow
ends with exit 130 at Ctrl-C, 0 when the sandbox stops.

Examples:
  $ kactl sandbox logs --failed
  $ kactl sandbox logs --type login,license --user alice --since 10m
  $ kactl sandbox logs --follow --api 1.3,1.2
  $ kactl sandbox logs -o ndjson | jq 'select(.success == false) | .reason'`,
    )
    .action(async (options: LogsOptions) => {
      const format = formatOf(ctx);
      const print = (record: LogRecord): void => {
        // Wrapped to the terminal; piped (-o table), each record stays one line.
        const width = ctx.io.isStdoutTTY ? ctx.io.columns : undefined;
        ctx.io.out(format === 'lines' ? `${logLine(record, { color: ctx.io.stdoutColor, now: ctx.now(), width })}\n` : `${JSON.stringify(record)}\n`);
      };
      if (options.follow) return follow(ctx, options, print);
      const { limit, requests } = await listSandboxRequests(await adminTarget(ctx, options), filterOf(ctx, options));
      if (format === 'json') return ctx.output.json(requests);
      for (const record of requests) print(record);
      if (limit === 0) ctx.output.note('The request inspector is off: this sandbox was started with --log-limit 0.');
      else if (requests.length === 0 && format === 'lines') ctx.output.note('No requests recorded match.');
    });
}

async function follow(ctx: Context, options: LogsOptions, print: (record: LogRecord) => void): Promise<void> {
  try {
    const body = await sandboxAdminStream(await adminTarget(ctx, options), { path: requestsPath(filterOf(ctx, options), true), idleMs: FOLLOW_IDLE_MS });
    if (ctx.io.isStdoutTTY) ctx.output.note('Following the sandbox\'s requests; Ctrl-C to stop.');
    for await (const event of serverSentEvents(body)) {
      if (event.event === 'request') print(JSON.parse(event.data) as LogRecord);
      else if (event.event === 'end') {
        const said = (JSON.parse(event.data) as { message?: unknown }).message;
        ctx.output.note(`The sandbox ended the stream: ${typeof said === 'string' ? said : 'no reason given'}.`);
        return;
      }
    }
    throw new NetworkError('The sandbox closed the request stream without a word; is it still running?');
  } catch (error) {
    // Ctrl-C is how a follow ends: quietly, with the shell's code for it.
    if (!(error instanceof InterruptedError) && !ctx.signal.aborted) throw error;
    ctx.exitCode = ExitCode.interrupted;
  }
}
