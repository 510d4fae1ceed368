/**
 * `kactl client web-loader [--port 1337] [--once]`: the program's side of the web loader
 * (docs/protocol/client-api.md §4.29). Listens on loopback (127.0.0.1 and ::1, as `localhost`
 * may mean either); the customer panel's loader page sends `/handshake?user=…&token=…`, and
 * this logs in with that token (a fresh init, then `login` with `token` and the HWID). Success
 * answers HTTP 420 "SHEESH", the status the page waits for; a refused login answers 200 with the
 * server's message as the reason and stops the loader, as the SDKs do. After the handshake each
 * `GET /<button value>` is printed on stdout, one a line, and answered 420. CORS preflights get
 * 200 with `Access-Control-Allow-Origin: *`. Stops on Ctrl-C (exit 130) or, with --once, after
 * the first button.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiFailure, AuthError, InterruptedError, KactlError, UsageError } from '../../errors.js';
import { hwidOption } from './options.js';

interface WebLoaderOptions {
  port: string;
  once?: boolean;
  hwid?: string;
}

export const DEFAULT_WEB_LOADER_PORT = 1337;

export function registerClientWebLoader(group: Command, ctx: Context): void {
  group
    .command('web-loader')
    .description("play a protected program's web loader: answer the panel's handshake, print each button pressed")
    .option('--port <port>', 'port to listen on (loopback only)', String(DEFAULT_WEB_LOADER_PORT))
    .option('--once', 'stop after the first button press')
    .addOption(hwidOption())
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client web-loader                 # then press a button on the panel's loader page
  $ kactl client web-loader --port 1400 --once`,
    )
    .action(async (options: WebLoaderOptions) => {
      await webLoaderRun(ctx, options);
    });
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new UsageError(`--port takes a port number from 1 to 65535; got "${text}".`);
  return port;
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*', 'cache-control': 'no-store' };

/** A reason phrase must be plain header text. */
function reason(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200) || 'Refused';
}

function answer(res: ServerResponse, status: number, phrase: string, body = ''): void {
  res.writeHead(status, phrase, { ...CORS, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export async function webLoaderRun(ctx: Context, options: WebLoaderOptions): Promise<void> {
  const port = parsePort(options.port);
  const http = await import('node:http');
  const { resolveHwid } = await import('./hwid.js');
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  let signedIn: string | undefined;

  let finish!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (error?: unknown) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error('web loader stopped')));
  });

  async function handshake(url: URL, res: ServerResponse): Promise<void> {
    const user = url.searchParams.get('user') ?? '';
    const token = url.searchParams.get('token') ?? '';
    if (user === '' || token === '') return answer(res, 400, 'Missing user or token', 'The handshake needs user and token.');
    try {
      await api.init();
      await api.call('login', { username: user, token, hwid });
    } catch (error) {
      const message = error instanceof KactlError ? error.message : (error as Error).message;
      answer(res, 200, reason(message), message);
      finish(error instanceof ApiFailure || error instanceof AuthError ? error : new AuthError(`The web loader login failed: ${message}`));
      return;
    }
    signedIn = user;
    ctx.output.success(`Signed in as ${user} with the web loader token; waiting for buttons.`);
    answer(res, 420, 'SHEESH');
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'OPTIONS') return answer(res, 200, 'OK');
    if (req.method !== 'GET') return answer(res, 405, 'Method Not Allowed');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/handshake') {
      handshake(url, res).catch(finish);
      return;
    }
    if (signedIn === undefined) return answer(res, 409, 'Handshake first', 'No handshake yet.');
    const value = decodeURIComponent(url.pathname.slice(1));
    if (value === '') return answer(res, 404, 'Not Found');
    ctx.output.line(value);
    answer(res, 420, 'SHEESH');
    if (options.once) finish();
  }

  const servers: Server[] = [];
  const listenOn = (host: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const server = http.createServer((req, res) => handle(req, res));
      server.once('error', reject);
      server.listen(port, host, () => {
        servers.push(server);
        resolve();
      });
    });
  try {
    await listenOn('127.0.0.1');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'EADDRINUSE' ? `Port ${port} is in use; stop what uses it or pick another with --port.` : `Cannot listen on 127.0.0.1:${port} (${code ?? (error as Error).message}).`);
  }
  // IPv6 loopback too, where the machine has it (`localhost` may resolve there first).
  await listenOn('::1').catch(() => undefined);
  ctx.output.note(`Web loader listening on http://localhost:${port}; open the loader page of the customer panel. Ctrl-C stops.`);

  const onAbort = (): void => finish(new InterruptedError());
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await done;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })));
  }
}
