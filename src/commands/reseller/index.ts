/**
 * `kactl reseller …`: rehearsing a reseller shop integration offline.
 *
 *   kactl reseller simulate-sale --shop sellix --reseller bob --product 42 --quantity 5 [--expiry 30]
 *
 * sends the signed notification a shop would send to the reseller hook of any server (the
 * profile's, or `--url`), and prints the server's plain-text answer: the new keys one a line
 * with --expiry, else its balance message.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerResellerCommands(program: Command, ctx: Context): void {
  const group = program.command('reseller').description('rehearse a reseller shop integration (Sellix, Shoppy, SellApp) offline');
  group
    .command('simulate-sale')
    .description("send a shop's signed sale notification to the reseller hook")
    .requiredOption('--shop <shop>', 'the shop whose payload and signature to send: sellix, shoppy or sellapp')
    .requiredOption('--reseller <username>', 'the reseller account the sale is for (the custom field the shop forwards)')
    .option('--product <id>', 'the product id (SellApp: the listing slug) the seller stored for a balance duration')
    .option('--unit <unit>', "instead of --product: the shop's product id stored for day, week, month or lifetime (read with the seller key)")
    .requiredOption('--quantity <n>', 'how many keys were bought (1 to 100)')
    .option('--expiry <days>', 'make keys instead of adding balance; DAYS must be what the product stands for (day 1, week 7, month 30, lifetime as set in the app), or the hook refuses the sale')
    .option('--level <n>', "with --expiry: the level the shop's URL names; the hook refuses the sale unless it is the reseller's key level (default: not sent)")
    .option('--shop-secret-stdin', "read the shop's webhook secret from stdin (else KACTL_SHOP_SECRET, else a prompt)")
    .option('--url <url>', 'the hook to post to (default: <profile base URL>/api/reseller/)')
    .addHelpText(
      'after',
      `
The app is named by its secret (the profile's secret setting); the shop's webhook secret is the
one stored with \`kactl app set --sellix-secret/--shoppy-secret/--sellapp-secret\`.

Examples:
  $ kactl app set --sellix-secret-stdin --sellix-month-product prod-month < secret.txt
  $ KACTL_SHOP_SECRET=... kactl reseller simulate-sale --shop sellix --reseller bob --product prod-month --quantity 5
  $ kactl reseller simulate-sale --shop shoppy --reseller bob --product any --quantity 3 --expiry 30 --shop-secret-stdin < secret.txt
  $ kactl reseller simulate-sale --shop sellapp --reseller bob --unit lifetime --quantity 1`,
    )
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const { simulateSaleRun } = await import('./simulate-sale.js');
      await simulateSaleRun(ctx, options);
    });
}
