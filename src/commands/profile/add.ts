/** `kactl profile add NAME …`: create a profile, or update the fields given on an existing one. */
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import type { ProfileData } from '../../config/types.js';
import { SETTING_SPECS } from '../../config/settings.js';
import type { SettingKey } from '../../config/settings.js';
import { KactlError, UsageError } from '../../errors.js';
import { checkProfileName, parseBaseUrl, parsePositiveInt, parsePublicKey } from './validate.js';
import { parseDurationSeconds } from '../global-options.js';
import { resultMark, type CheckResult } from '../doctor/results.js';
import { checkProfile } from './check.js';
import { readStdinText } from '../../io/ask.js';

/** The settings that decide what the profile reaches: a new value of one of them is checked (check.ts). */
const CHECKED_SETTINGS: readonly SettingKey[] = ['baseUrl', 'sellerKey', 'appName', 'ownerid', 'appVersion', 'publicKey', 'secret', 'api', 'method', 'caFile'];

/** One flag per setting (settings.ts), named as the setting, plus how to read secrets and whether to activate. */
type AddOptions = Partial<Pick<ProfileData, SettingKey>> & {
  sellerKeyStdin?: boolean;
  secretStdin?: boolean;
  use?: boolean;
  force?: boolean;
};

export function registerProfileAdd(group: Command, ctx: Context): void {
  group
    .command('add')
    .description('create a profile, or update the settings given on an existing one')
    .argument('<name>', 'profile name', checkProfileName)
    .option('--base-url <url>', 'server base URL (required for a new profile)', parseBaseUrl)
    .option('--app-name <name>', 'application name (client API)')
    .option('--ownerid <id>', 'application owner id, 10 characters (client API)')
    .option('--app-version <version>', 'application version sent at init (default 1.0)')
    .option('--seller-key <key>', 'seller API key (visible in shell history: prefer --seller-key-stdin)')
    .option('--seller-key-stdin', 'read the seller key from stdin')
    .option('--public-key <hex>', "Ed25519 public key of the server's 1.3 signatures", parsePublicKey)
    .option('--secret <secret>', 'application secret, to check 1.2 HMAC signatures')
    .option('--secret-stdin', 'read the application secret from stdin')
    .addOption(new Option('--api <version>', 'client API version (default: 1.3, chat and user variables on 1.2)').choices(['1.3', '1.2']))
    .addOption(new Option('--method <method>', 'how every 1.3 call is sent (default: post with a password, key or code, else get)').choices(['get', 'post']))
    .addOption(new Option('--signatures <mode>', "skip: take client answers unchecked, with a warning (default check: refuse any kactl has no key for)").choices(['check', 'skip']))
    .option('--seller-rate <n>', 'seller calls per minute, 0 for no pacing (default 120)', parsePositiveInt)
    .option('--signature-window <seconds>', 'largest accepted age of a signed answer (default 60)', parsePositiveInt)
    .option('--timeout <duration>', 'request timeout, e.g. 15s', parseDurationSeconds)
    .option('--hwid <hwid>', 'HWID client commands send (default: this machine)')
    .option('--ca-file <file>', "certificate authority (PEM) trusted instead of the system's for HTTPS to this profile's server, e.g. a --tls sandbox's", (raw: string) => path.resolve(raw))
    .option('--use', 'make it the active profile')
    .option('--force', 'save without checking the server, key and app first (offline, e.g. in CI)')
    .addHelpText(
      'after',
      `
Before saving a new profile, or a change to its server, key, app, version, public key or
authority, kactl checks it as doctor does and as the profile will use it: the server answers,
the client API answers at the base URL on the profile's version (--api 1.2 for a server with
only 1.2), the seller key is accepted (only when one is given), the app's init is accepted
(with --app-name and --ownerid) and its answer verifies with the public key (1.3) or the app
secret (1.2). One line per check goes to stderr, and a last note names what was not checked;
nothing is saved unless all pass, or with --force (no network needed).

Examples:
  $ kactl profile add prod --base-url https://keyauth.win --app-name MyApp --ownerid AbCdEf1234 --seller-key-stdin < seller.key
  $ kactl profile add staging --base-url http://127.0.0.1:8787 --public-key d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a --use`,
    )
    .action(async (name: string, options: AddOptions) => {
      await profileAddRun(ctx, name, options);
    });
}

async function profileAddRun(ctx: Context, name: string, options: AddOptions): Promise<void> {
  if (options.sellerKey !== undefined && options.sellerKeyStdin) throw new UsageError('Give --seller-key or --seller-key-stdin, not both.');
  if (options.secret !== undefined && options.secretStdin) throw new UsageError('Give --secret or --secret-stdin, not both.');
  if (options.sellerKeyStdin && options.secretStdin) throw new UsageError('Only one value can come from stdin at a time.');
  const sellerKey = options.sellerKeyStdin ? (await readStdinText(ctx, '--seller-key-stdin')).trim() : options.sellerKey;
  const secret = options.secretStdin ? (await readStdinText(ctx, '--secret-stdin')).trim() : options.secret;

  // Only the settings are stored: the options also hold the hidden global flags (--json, colour…).
  const given: Partial<Pick<ProfileData, SettingKey>> = { ...options, sellerKey, secret };
  const fields: Partial<ProfileData> = {};
  for (const { key } of SETTING_SPECS) {
    if (given[key] !== undefined) Object.assign(fields, { [key]: given[key] });
  }

  if (fields.ownerid !== undefined && fields.ownerid.length !== 10) ctx.output.warn(`An ownerid is usually 10 characters; "${fields.ownerid}" has ${fields.ownerid.length}.`);
  if (fields.sellerKey !== undefined && fields.sellerKey.length !== 32) ctx.output.warn(`A seller key is usually 32 characters; this one has ${fields.sellerKey.length}.`);

  const store = await ctx.config();
  const existed = store.profile(name) !== undefined;
  if (!existed && fields.baseUrl === undefined) throw new UsageError(`A new profile needs --base-url.`);
  // A different server or app makes the stored session meaningless.
  if (existed && (fields.baseUrl !== undefined || fields.appName !== undefined || fields.ownerid !== undefined)) fields.session = undefined;
  const checked = !existed || CHECKED_SETTINGS.some((key) => fields[key] !== undefined);
  const skipped = checked && options.force !== true ? await checkBeforeSaving(ctx, name, { ...store.profile(name), ...fields }) : [];
  let activated = false;
  store.update((config) => {
    config.profiles[name] = Object.fromEntries(Object.entries({ ...config.profiles[name], ...fields }).filter(([, v]) => v !== undefined));
    if (options.use || config.active === undefined || !(config.active in config.profiles)) {
      activated = config.active !== name;
      config.active = name;
    }
  });
  ctx.output.success(`${existed ? 'Updated' : 'Added'} profile ${name}${activated ? ' (now active)' : ''}.`);
  // Said once it is saved: a folder that refuses the write must not be told it was.
  if (checked && options.force === true) ctx.output.warn(`Profile ${name} was saved without checking it (--force); \`kactl doctor --profile ${name}\` checks it.`);
  if (skipped.length > 0) ctx.output.note(`Not checked: ${skipped.map((r) => `${r.check} (${r.detail})`).join('; ')}.`);
}

/**
 * The checks, one line each on stderr, and no saving unless all pass; returns the ones skipped
 * (a value not given, a server without that part), for the note after saving. `--force` skips
 * this, which is how a profile is made without network.
 */
async function checkBeforeSaving(ctx: Context, name: string, profile: ProfileData): Promise<CheckResult[]> {
  const results = await checkProfile(ctx, name, Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined)));
  for (const r of results) ctx.output.note(`${resultMark(r.status, ctx.io.isStderrTTY)} ${r.check}: ${r.detail}`);
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length === 0) return results.filter((r) => r.status === 'skip');
  throw new KactlError(`Profile ${name} was not saved: the ${failed.map((r) => r.check).join(', ')} check${failed.length === 1 ? '' : 's'} failed.`, failed[0]!.code ?? 'NETWORK', {
    hints: ['Correct the value and run the command again, or save it unchecked with --force (the way without network, e.g. when CI creates profiles offline).'],
  });
}
