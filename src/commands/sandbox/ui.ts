/**
 * `kactl sandbox ui [--print]`: the sandbox's dashboard (`/sandbox/ui`) in a browser. The
 * command asks the running sandbox (admin token, as `sandbox outbox` does) for a one-time
 * sign-in link, good for one sign-in within two minutes, and opens it in the default browser,
 * or prints it: with --print, when stdout is not a terminal, or when there is no display. The
 * admin token itself never goes into a URL, and the code never into a command line: the browser
 * is given a private page that posts it (browser-open.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { NetworkError } from '../../errors.js';
import { sandboxAdminRequest } from '../../api/sandbox-admin.js';
import { adminTarget, adminTokenOptions, type AdminTokenOptions } from './admin.js';
import { browserOpener, openInBrowser, writeSignInPage } from './browser-open.js';

interface UiOptions extends AdminTokenOptions {
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

/** Opens the sign-in in the browser through a private page; false when there is no browser to open. */
async function openSignIn(ctx: Context, link: SignInLink): Promise<boolean> {
  const opener = browserOpener(ctx.runtime.platform, ctx.env);
  if (opener === undefined) return false;
  let page: string;
  try {
    page = writeSignInPage(ctx.dataDir, new URL(link.url), opener, ctx.now());
  } catch (error) {
    // A read-only or full data folder: the link is printed instead, never handed to the opener.
    ctx.output.warn(`Could not write the sign-in page in ${ctx.dataDir} (${(error as NodeJS.ErrnoException).code ?? 'error'}); printing the link instead.`);
    return false;
  }
  return openInBrowser(opener, page);
}

export function registerSandboxUi(group: Command, ctx: Context): void {
  adminTokenOptions(
    group
      .command('ui')
      .description("open the sandbox's dashboard in a browser (a one-time sign-in link; --print to print it)")
      .option('--print', 'print the sign-in link instead of opening a browser'),
  )
    .addHelpText(
      'after',
      `
The link signs one browser in, once, within two minutes; the browser then keeps a cookie for
12 hours. It is printed instead of opened when stdout is not a terminal or there is no display.
To open it, kactl gives the browser a page only you can read (in the data folder) that signs
in, so the link is in no process list.

Examples:
  $ kactl sandbox ui
  $ kactl sandbox ui --print`,
    )
    .action(async (options: UiOptions) => {
      const body = await sandboxAdminRequest(await adminTarget(ctx, options), { method: 'POST', path: '/sandbox/ui-code' });
      const link = readLink(body);
      if (ctx.output.wantsJson) return ctx.output.json(link);
      if (!options.print && ctx.io.isStdoutTTY && (await openSignIn(ctx, link))) {
        ctx.output.success('Opened the sandbox dashboard in your browser.');
        ctx.output.note(`If no browser came up, run kactl sandbox ui --print and open the link within ${link.expiresIn} seconds.`);
        return;
      }
      ctx.output.line(link.url);
      ctx.output.note(`Open this link within ${link.expiresIn} seconds; it signs one browser in, once.`);
    });
}
