/** `kactl reseller simulate-sale`: see index.ts. */
import type { Context } from '../../context.js';
import { ApiFailure, NetworkError, UsageError } from '../../errors.js';
import { signedSale } from '../../api/shop-sale.js';
import { isProductUnit, PRODUCT_UNITS, SHOP_NAMES, shopProductFlag, shopProductSetting, type ShopName } from '../../api/seller-catalog/shop-products.js';
import { readStdinText, valueOrAsk } from '../../io/ask.js';

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}.`);
  return n;
}

async function shopSecret(ctx: Context, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readStdinText(ctx, '--shop-secret-stdin')).trim();
  return valueOrAsk(ctx, { value: ctx.env['KACTL_SHOP_SECRET'], flag: '--shop-secret-stdin', alternative: 'KACTL_SHOP_SECRET', label: 'Shop webhook secret', secret: true });
}

/**
 * The product id to sell: `--product` as given, or with `--unit` the id this shop has stored for
 * that balance unit (each shop keeps its own ids), read from getsettings with the seller key.
 */
async function productId(ctx: Context, shop: ShopName, options: Record<string, string | boolean | undefined>): Promise<string> {
  const product = options['product'];
  const unit = options['unit'];
  if ((product === undefined) === (unit === undefined)) throw new UsageError('Give either --product ID or --unit day|week|month|lifetime.');
  if (typeof product === 'string') return product;
  if (!isProductUnit(unit)) throw new UsageError(`--unit takes ${PRODUCT_UNITS.join(', ')}; got "${String(unit)}".`);
  const api = await ctx.sellerApi();
  const body = await api.call('getsettings', {}, { effect: 'read' });
  const sandbox = (body['sandbox'] ?? {}) as Record<string, unknown>;
  const id = sandbox[shopProductSetting(shop, unit)];
  if (typeof id !== 'string' || id === '') throw new UsageError(`No ${shop} ${unit} product id is stored; set one with \`kactl app set --${shopProductFlag(shop, unit)} ID\`.`);
  return id;
}

export async function simulateSaleRun(ctx: Context, options: Record<string, string | boolean | undefined>): Promise<void> {
  const shop = String(options['shop']);
  if (!(SHOP_NAMES as readonly string[]).includes(shop)) throw new UsageError(`--shop takes ${SHOP_NAMES.join(', ')}; got "${shop}".`);
  const quantity = wholeNumber(options['quantity'] as string | undefined, '--quantity', 1, 100);
  const expiryText = options['expiry'] as string | undefined;
  if (expiryText !== undefined && !(Number(expiryText) > 0)) throw new UsageError('--expiry takes a positive number of days.');
  const levelText = options['level'] as string | undefined;
  const level = levelText === undefined ? undefined : wholeNumber(levelText, '--level', 0, 999_999);
  const product = await productId(ctx, shop as ShopName, options);

  const settings = await ctx.settings();
  const appSecret = settings.secret.value;
  if (appSecret === undefined || appSecret === '') throw new UsageError("The profile has no app secret; the hook names the app by it. Set it with `kactl profile add NAME --secret-stdin`.");
  let hook: URL;
  try {
    hook = new URL(typeof options['url'] === 'string' ? options['url'] : `${String(settings.baseUrl.value ?? '').replace(/\/+$/, '')}/api/reseller/`);
  } catch {
    throw new UsageError('--url (or the profile base URL) is not a URL.');
  }
  const secret = await shopSecret(ctx, options['shopSecretStdin'] === true);
  hook.searchParams.set('app', appSecret);
  if (expiryText !== undefined) {
    hook.searchParams.set('expiry', expiryText);
    // A hook takes the level from the reseller's key levels; sending one only asks it to check.
    if (level !== undefined) hook.searchParams.set('level', String(level));
  }
  const { body, headers } = signedSale(shop as ShopName, secret, { reseller: String(options['reseller']), product, quantity });
  const shown = new URL(hook);
  shown.searchParams.set('app', '***');
  ctx.verbose(`→ POST ${shown.href} (${shop} payload, ${body.length} bytes)`);

  let response: Response;
  try {
    response = await fetch(hook, { method: 'POST', headers: { ...headers, 'user-agent': 'kactl' }, body, redirect: 'manual', signal: AbortSignal.timeout(settings.timeout.value * 1000) });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new NetworkError(`Cannot reach ${shown.origin}${shown.pathname}: ${cause}.`);
  }
  const answer = (await response.text()).trim();
  if (!response.ok) throw new NetworkError(`${shown.origin}${shown.pathname} answered HTTP ${response.status}${answer === '' ? '' : `: ${answer.slice(0, 200)}`}.`);
  const refused = answer.startsWith('Failure:') || answer.startsWith("You didn't") || answer.startsWith("Request isn't");
  if (refused) throw new ApiFailure(answer, { success: false, message: answer }, response.status);
  if (ctx.output.wantsJson) {
    const keys = expiryText === undefined ? undefined : answer.split(/\r?\n/).filter(Boolean);
    return ctx.output.json(keys === undefined ? { success: true, message: answer } : { success: true, keys });
  }
  if (expiryText === undefined) {
    ctx.output.success(answer);
    return;
  }
  for (const key of answer.split(/\r?\n/).filter(Boolean)) ctx.output.line(key);
}
