/**
 * `kactl sandbox ui [--print]`: the sandbox's dashboard (`/sandbox/ui`) in a browser. The
 * command asks the running sandbox (admin token, as `sandbox outbox` does) for a one-time
 * sign-in link, good for one sign-in within two minutes, and opens it in the default browser,
 * or prints it: with --print, when stdout is not a terminal, or when there is no display. The
 * admin token itself never goes into a URL.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { NetworkError } from '../../errors.js';
import { sandboxAdminRequest } from './admin.js';

interface UiOptions {
  adminToken?: string;
  print?: boolean;
}

interface SignInLink {
  url: string;
  expiresIn: number;
}

function readLink(body: unknown): SignInLink {
  const { url, expiresIn } = (body ?? {}) as Partial<SignInLink>;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof expiresIn !== 'number') {
    throw new NetworkError('The sandbox answered the sign-in request with an unexpected shape; is it a kactl sandbox new enough to have a dashboard?');
  }
  return { url, expiresIn };
}

/** The program that opens a URL in the default browser here, or undefined when there is no display. */
export function browserOpener(platform: string, env: Readonly<Record<string, string | undefined>>): { file: string; args: (url: string) => string[] } | undefined {
  if (env['BROWSER']) return { file: env['BROWSER'], args: (url) => [url] };
  if (platform === 'darwin') return { file: 'open', args: (url) => [url] };
  if (platform === 'win32') return { file: 'cmd', args: (url) => ['/c', 'start', '""', url] };
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return undefined;
  return { file: 'xdg-open', args: (url) => [url] };
}

/** Starts the browser; false when the opener could not be run. */
async function openInBrowser(opener: NonNullable<ReturnType<typeof browserOpener>>, url: string): Promise<boolean> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(opener.file, opener.args(url), { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export function registerSandboxUi(group: Command, ctx: Context): void {
  group
    .command('ui')
    .description("open the sandbox's dashboard in a browser (a one-time sign-in link; --print to print it)")
    .option('--print', 'print the sign-in link instead of opening a browser')
    .option('--admin-token <token>', "the sandbox's admin token (default: saved in the sandbox profile)")
    .addHelpText(
      'after',
      `
The link signs one browser in, once, within two minutes; the browser then keeps a cookie for
12 hours. It is printed instead of opened when stdout is not a terminal or there is no display.

Examples:
  $ kactl sandbox ui
  $ kactl sandbox ui --print`,
    )
    .action(async (options: UiOptions) => {
      const body = await sandboxAdminRequest(ctx, { method: 'POST', path: '/sandbox/ui-code', ...(options.adminToken ? { adminToken: options.adminToken } : {}) });
      const link = readLink(body);
      if (ctx.output.wantsJson) return ctx.output.json(link);
      const opener = options.print || !ctx.io.isStdoutTTY ? undefined : browserOpener(ctx.runtime.platform, ctx.env);
      if (opener !== undefined && (await openInBrowser(opener, link.url))) {
        ctx.output.success('Opened the sandbox dashboard in your browser.');
        ctx.output.note(`If no browser came up, run kactl sandbox ui --print and open the link within ${link.expiresIn} seconds.`);
        return;
      }
      ctx.output.line(link.url);
      ctx.output.note(`Open this link within ${link.expiresIn} seconds; it signs one browser in, once.`);
    });
}
