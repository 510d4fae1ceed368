/**
 * What a sandbox says once it serves: the `--json` ready line (exactly the contract's fields),
 * or for people the address, the app, the masked secrets, the store, the profile, and how to
 * stop it. The foreground server and `start --detach` print the same thing.
 */
import type { Context } from '../../context.js';
import type { LastPort, SandboxInfo } from '../../server/start.js';
import { maskValue } from '../../api/redact.js';

/** What the serving process knows once it is ready (passed from the background server to `--detach`). */
export interface ReadyReport {
  readonly info: SandboxInfo;
  readonly pid: number;
  readonly data: string;
  /** The profile it saved, if any. */
  readonly profile: string | null;
  /** The active profile after saving. */
  readonly active: string | null;
  readonly logFile: string | null;
  /** Seconds the domain clock runs from real time (kept in the store across restarts). */
  readonly clockOffset: number;
  /** Started without `--port` on a store that had a last port: taken again, or in use. */
  readonly lastPort?: LastPort | null;
  /** What the person should know about the HTTPS authority (ending soon, no name constraints). */
  readonly warnings?: readonly string[];
}

export function isReadyReport(value: unknown): value is ReadyReport {
  const report = value as Partial<ReadyReport> | null;
  return typeof report === 'object' && report !== null && typeof report.pid === 'number' && typeof report.info?.baseUrl === 'string';
}

export async function announceReady(ctx: Context, report: ReadyReport, options: { detached: boolean }): Promise<void> {
  const { info } = report;
  // `listen` is set only when the bind is not loopback: say so even under --json (stderr).
  if (info.listen !== undefined) ctx.output.warn(exposureWarning(info.listen));
  for (const warning of report.warnings ?? []) ctx.output.warn(warning);
  const port = lastPortNote(report);
  if (port !== undefined) ctx.output.note(port);
  if (ctx.globals.json) {
    ctx.io.out(`${JSON.stringify(info)}\n`);
    return;
  }
  const stopCommand = `kactl sandbox stop${report.profile ? ` ${report.profile}` : ` ${report.pid}`}`;
  const where = info.listen === undefined || info.listen === info.baseUrl ? info.baseUrl : `${info.listen} (this machine: ${info.baseUrl})`;
  ctx.output.success(`Sandbox listening on ${where}${options.detached ? ` in the background (pid ${report.pid})` : ''}`);
  ctx.output.note(
    [
      `  app ${info.app.name}   ownerid ${info.app.ownerid}   version ${info.app.version}`,
      `  public key ${info.publicKey}`,
      `  secret ${maskValue('secret', info.app.secret)}   seller key ${maskValue('sellerkey', info.sellerKey)}   (--json prints them in full)`,
      info.caFile !== undefined ? `  https: certificate for ${certificateNamesOf(info)}, signed by the authority in ${info.caFile} (trusted by the profile; for your program: kactl sandbox ca --help)` : '',
      `  store ${report.data}`,
      report.logFile ? `  log ${report.logFile}` : '',
      profileLine(report),
      report.clockOffset !== 0 ? `  clock ${report.clockOffset} s from real time (kept in the store); back to real time with: kactl sandbox clock --reset` : '',
      options.detached ? `Stop it with: ${stopCommand}` : `Press Ctrl-C to stop, or run \`${stopCommand}\` from any shell.`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

/** What happened to the store's last port, on stderr even with --json (stdout holds only the ready line). */
function lastPortNote(report: ReadyReport): string | undefined {
  const last = report.lastPort;
  if (last === undefined || last === null) return undefined;
  if (last.reused) return `Using port ${last.port} again, as last time for this store (--port 0 for a random one).`;
  const now = new URL(report.info.baseUrl).port;
  return `Port ${last.port}, the one this store used last time, is in use; listening on ${now} instead (--port N to choose one).`;
}

function profileLine(report: ReadyReport): string {
  if (report.profile === null) return '';
  if (report.active === report.profile) return `  saved as profile "${report.profile}" (active): other kactl commands use it`;
  return `  saved as profile "${report.profile}": use it with --profile ${report.profile} (the active profile is still "${report.active ?? '-'}")`;
}

/** Who can reach a sandbox bound beyond loopback, in one line; what still protects it. */
function exposureWarning(listen: string): string {
  const host = new URL(listen).hostname.replace(/^\[|\]$/g, '');
  const who = host === '0.0.0.0' || host === '::' ? 'every machine that can reach this one, on any of its networks,' : `every machine that can reach ${host}`;
  return `The sandbox listens on ${listen}: ${who} can use its APIs and pages (the admin routes and the dashboard still need the admin token). Use --host 127.0.0.1 unless you mean that.`;
}

/** The names the HTTPS certificate carries, as names.ts makes them (the bound address is in `listen`). */
function certificateNamesOf(info: SandboxInfo): string {
  const names = ['localhost', '127.0.0.1', '::1'];
  const add = (name: string | undefined): void => {
    if (name !== undefined && name !== '0.0.0.0' && name !== '::' && !names.includes(name)) names.push(name);
  };
  const first = info.hostname ?? '?';
  add(info.listen === undefined ? undefined : new URL(info.listen).hostname.replace(/^\[|\]$/g, ''));
  return [first, ...names.filter((name) => name !== first)].join(', ');
}
