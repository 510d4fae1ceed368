/**
 * `--dry-run`: print the requests a command would send (method and URL, the seller key and
 * other secrets masked by the one redactor) on stdout, and send nothing. The settings are
 * checked as for a real call, so a dry run also says when no server or key is configured.
 */
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { redactObject, redactUrl } from '../../api/redact.js';

export async function printDryRun(ctx: Context, op: SellerOp, calls: readonly Readonly<Record<string, string>>[], options: { backup: boolean }): Promise<void> {
  const api = await ctx.sellerApi();
  const requests = calls.map((params) => ({
    method: 'GET',
    url: redactUrl(api.requestUrl(op.type, params)),
    type: op.type,
    params: redactObject({ ...params }),
  }));
  if (ctx.output.wantsJson) ctx.output.json({ dryRun: true, requests });
  else for (const request of requests) ctx.output.line(`${request.method} ${request.url}`);
  if (op.effect === 'bulk') {
    if (op.backupFrom !== undefined && options.backup) ctx.output.note(`Would first back up the result of ${op.backupFrom} to ${ctx.dataDir}/backups/.`);
    ctx.output.note('Would ask for the application name first (or need --yes without a terminal).');
  } else if (op.effect === 'delete-one') {
    ctx.output.note('Would ask y/N first (or need --yes without a terminal).');
  }
  ctx.output.note(`Dry run: nothing was sent (${requests.length} request${requests.length === 1 ? '' : 's'} shown).`);
}
