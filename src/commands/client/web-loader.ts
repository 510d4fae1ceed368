/**
 * `kactl client web-loader [--port 1337] [--once] [--origin URL]`: the program's side of the web
 * loader (docs/protocol/client-api.md §4.29). Listens on loopback (127.0.0.1 and ::1, as
 * `localhost` may mean either; both or neither). Answers only pages of the app's server and
 * customer panel (their `Origin`; `--origin` adds one). The sandbox's loader page first asks
 * `/kactl/proof?nonce=…` and sends the token by itself only when the answer proves this program
 * holds the app secret (src/api/loader-proof.ts); then `/handshake?nonce=…&user=…&token=…`, and
 * this logs in with that token (a fresh init, then `login` with `token` and the HWID). A token
 * without a nonce (the hosted panel's page, or the sandbox's after the person chose to send it)
 * is answered too. Success answers HTTP 420
 * "SHEESH", the status the page waits for; a refused login answers 200 with the server's
 * message as the reason and stops the loader, as the SDKs do. After the handshake each
 * `GET /<button value>` is printed on stdout, one a line, without control characters, and
 * answered 420. Stops on Ctrl-C (exit 130) or, with --once, after the first button.
 */
import type { createServer, RequestListener, Server, ServerResponse } from 'node:http';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiFailure, AuthError, InterruptedError, KactlError, UsageError } from '../../errors.js';
import { hwidOption } from './options.js';
import { oneLine } from '../../io/format.js';
import { resolveHwid } from './hwid.js';

interface WebLoaderOptions {
  port: string;
  once?: boolean;
  hwid?: string;
  origin?: string[];
}

export const DEFAULT_WEB_LOADER_PORT = 1337;

export function registerClientWebLoader(group: Command, ctx: Context): void {
  group
    .command('web-loader')
    .description("play a protected program's web loader: answer the panel's handshake, print each button pressed")
    .option('--port <port>', 'port to listen on (loopback only)', String(DEFAULT_WEB_LOADER_PORT))
    .option('--once', 'stop after the first button press')
    .option('--origin <url>', "also answer pages from this origin (default: the server's and its customer panel's)", collectOrigin, [])
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

function collectOrigin(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function originOf(text: string, what: string): string {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url.origin;
  } catch {
    throw new UsageError(`${what} must be an http(s) URL; got ${JSON.stringify(text)}.`);
  }
}

/**
 * The customer panel's address from init's `appinfo`, when it is an http(s) URL: the pages
 * allowed to talk to the loader are the server's, this panel's and any --origin.
 */
function customerPanelLink(init: Record<string, unknown>): string | undefined {
  const appinfo = typeof init.appinfo === 'object' && init.appinfo !== null ? (init.appinfo as { customerPanelLink?: unknown }) : {};
  return typeof appinfo.customerPanelLink === 'string' && /^https?:\/\//.test(appinfo.customerPanelLink) ? appinfo.customerPanelLink : undefined;
}

/**
 * Listens on 127.0.0.1 and ::1, both or neither (a refusal closes what was opened and is one
 * usage error); resolves to the function that closes them.
 */
async function listenOnLoopback(newServer: typeof createServer, handle: RequestListener, port: number): Promise<() => Promise<void>> {
  const servers: Server[] = [];
  const listenOn = (host: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const server = newServer(handle);
      server.once('error', reject);
      server.listen(port, host, () => {
        servers.push(server);
        resolve();
      });
    });
  const closeAll = async (): Promise<void> => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })));
  };
  try {
    await listenOn('127.0.0.1');
    // `localhost` may resolve to ::1 first: the loader must hold the port there too, or another
    // local program could take it and receive the page's handshake. A machine without IPv6
    // loopback has no ::1 for anyone.
    await listenOn('::1').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return;
      throw Object.assign(error, { address: '::1' });
    });
  } catch (error) {
    await closeAll();
    const { code, address } = error as NodeJS.ErrnoException & { address?: string };
    const where = address === '::1' ? `[::1]:${port}` : `127.0.0.1:${port}`;
    throw new UsageError(code === 'EADDRINUSE' ? `Port ${port} is in use (${where}); stop what uses it or pick another with --port.` : `Cannot listen on ${where} (${code ?? (error as Error).message}).`);
  }
  return closeAll;
}

export async function webLoaderRun(ctx: Context, options: WebLoaderOptions): Promise<void> {
  const port = parsePort(options.port);
  const extraOrigins = (options.origin ?? []).map((text) => originOf(text, '--origin'));
  const http = await import('node:http');
  const { answer, loaderRequests, reasonPhrase } = await import('./web-loader-requests.js');
  const hwid = await resolveHwid(ctx, options.hwid);
  const settings = await ctx.settings();
  const api = await ctx.clientApi();
  const panelLink = customerPanelLink(await api.init());
  const origins = new Set([originOf(settings.baseUrl.value ?? '', 'The base URL'), ...(panelLink ? [new URL(panelLink).origin] : []), ...extraOrigins]);
  const secret = settings.secret.value || undefined;
  let signedIn: string | undefined;

  let finish!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (error?: unknown) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error('web loader stopped')));
  });

  async function login(user: string, token: string, res: ServerResponse): Promise<void> {
    try {
      await api.init();
      await api.call('login', { username: user, token, hwid });
    } catch (error) {
      const message = error instanceof KactlError ? error.message : (error as Error).message;
      answer(res, 200, reasonPhrase(message), message);
      finish(error instanceof ApiFailure || error instanceof AuthError ? error : new AuthError(`The web loader login failed: ${message}`));
      return;
    }
    signedIn = user;
    ctx.output.success(`Signed in as ${oneLine(user)} with the web loader token; waiting for buttons.`);
    answer(res, 420, 'SHEESH');
  }

  const handle = loaderRequests({
    origins,
    port,
    secret,
    login: (user, token, res) => void login(user, token, res).catch(finish),
    signedIn: () => signedIn !== undefined,
    pressed: (value) => {
      ctx.output.line(value);
      if (options.once) finish();
    },
    warn: (line) => ctx.output.warn(line),
  });

  const closeAll = await listenOnLoopback(http.createServer, handle, port);
  ctx.output.note(`Web loader listening on http://localhost:${port}; open the loader page of the customer panel${panelLink ? ` (${panelLink.replace(/\/?$/, '/')}loader)` : ''}. Ctrl-C stops.`);
  if (secret === undefined) {
    ctx.output.warn("The profile has no app secret: the sandbox's loader page will hand this program its token only when you press \"Send my sign-in to this program\" (the program proves itself with the secret; set it with `kactl profile add NAME --secret-stdin`).");
  }

  const onAbort = (): void => finish(new InterruptedError());
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await done;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await closeAll();
  }
}
