/**
 * `kactl client webhook WEBID [--params P] [--body B] [--content-type T]`: have the server call
 * one of the app's hidden URLs and print what it answered (`response`, docs/protocol/client-api.md §4.16).
 * `--params` is appended to the stored URL as is: start it with `?` or `&` as that URL needs.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { printValue } from './print-value.js';

interface WebhookOptions {
  params?: string;
  body?: string;
  contentType?: string;
}

export function registerClientWebhook(group: Command, ctx: Context): void {
  group
    .command('webhook')
    .description("have the server call one of the app's webhooks and print the remote answer")
    .addArgument(completeFrom(new Argument('<webid>', 'webhook id'), { kind: 'seller-list', list: 'fetchallwebhooks' }))
    .option('--params <params>', 'appended to the stored URL as is, e.g. "&user=alice" or "?q=1"')
    .option('--body <body>', 'request body; with one the server POSTs, without it GETs')
    .option('--content-type <type>', 'Content-Type of the body, e.g. application/json')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client webhook grant --params "&user=alice"
  $ kactl client webhook notify --body '{"event":"start"}' --content-type application/json`,
    )
    .action(async (webid: string, options: WebhookOptions) => {
      const body = await (await ctx.clientApi()).call('webhook', { webid, params: options.params, body: options.body, conttype: options.contentType });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      printValue(ctx, body.response);
    });
}
