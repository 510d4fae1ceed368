/**
 * `kactl sandbox connect <sdk>`: the lines to change in a program built on one of the client
 * libraries (sdk-targets.ts) so it talks to the running sandbox of the selected profile, with
 * every value filled in, so nobody copies a key by hand.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { UsageError } from '../../errors.js';
import { reachableAddresses } from './machine-addresses.js';
import { FORCE_HWID_OFF, resolveSdk, SDK_IDS, sheetValues, targetSheet, type SandboxValues, type TargetSheet } from './sdk-targets.js';
import { printAuditSheet } from './sdk-audit.js';

export function registerSandboxConnect(group: Command, ctx: Context): void {
  group
    .command('connect')
    .description("print what to change in your program (URL, public key, app) to test it against the running sandbox")
    .addArgument(completeFrom(new Argument('<sdk>', `the client library: ${SDK_IDS.join(', ')}`), { kind: 'names', names: () => Promise.resolve(SDK_IDS) }))
    .option('--audit', "instead: the lines that make the program read kactl sandbox audit's KEYAUTH_* variables (no sandbox needed)")
    .addHelpText(
      'after',
      `
The sandbox is the selected profile's (the active one, or --profile NAME), and must be
running. Official 1.3 SDKs (python, csharp, cpp, php, go, react) get the 1.3 URL; java
(KeyAuth-Java) and node (keyauth-js) the 1.2 URL. The current C++ library refuses loopback
and needs HTTPS on port 443: cpp prints the start command for a non-loopback address of this
machine, the main.cpp lines (URL, set_allowed_hosts) and the public key in the forms both
library copies hold it. keyauth-js over HTTPS needs --tls --hostname keyauth.win.

Examples:
  $ kactl sandbox connect python
  $ kactl sandbox connect cpp --profile sandbox
  $ kactl sandbox connect go --json
  $ kactl sandbox connect python --audit`,
    )
    .action(async (raw: string, options: { audit?: boolean }) => {
      const sdk = resolveSdk(raw);
      if (sdk === undefined) throw new UsageError(`Unknown SDK "${raw}"; choose one of: ${SDK_IDS.join(', ')}.`);
      if (options.audit === true) return printAuditSheet(ctx, sdk);
      const values = await runningSandboxValues(ctx);
      const sheet = targetSheet(sdk, values);
      if (ctx.output.wantsJson) return ctx.output.json(sheetValues(sheet, values));
      ctx.io.out(render(sheet));
    });
}

/** The selected profile's values, checked against the sandboxes running from this data folder. */
async function runningSandboxValues(ctx: Context): Promise<SandboxValues> {
  const settings = await ctx.settings();
  const profile = settings.profile.value;
  const baseUrl = settings.baseUrl.value;
  if (profile === undefined || baseUrl === undefined) {
    throw new UsageError('No sandbox profile is selected; start one with: kactl sandbox start --detach (or choose one with --profile).');
  }
  const { runningSandboxes } = await import('./profile.js');
  const entry = (await runningSandboxes(ctx)).find((candidate) => candidate.baseUrl === baseUrl);
  if (entry === undefined) {
    throw new UsageError(`No running sandbox serves profile "${profile}" (${baseUrl}).`, {
      hints: ['Start it with: kactl sandbox start --detach   (see the running ones with: kactl sandbox status)'],
    });
  }
  const { appName, ownerid } = settings;
  if (appName.value === undefined || ownerid.value === undefined) throw new UsageError(`Profile "${profile}" has no application name or ownerid; start its sandbox again to save them.`);
  const { resolveData } = await import('./start.js');
  return {
    baseUrl,
    machineAddresses: reachableAddresses(),
    profile,
    store: entry.data === resolveData(ctx, undefined) ? undefined : entry.data,
    platform: ctx.runtime.platform,
    name: appName.value,
    ownerid: ownerid.value,
    version: settings.appVersion.value,
    secret: settings.secret.value,
    publicKey: settings.publicKey.value,
    caFile: entry.caFile ?? undefined,
    hostname: entry.hostname ?? undefined,
  };
}

function render(sheet: TargetSheet): string {
  const out: string[] = [`${sheet.title}: client API ${sheet.api}`];
  for (const block of sheet.code) {
    out.push(`  ${block.file}:`, ...block.lines.map((line) => `    ${line}`));
  }
  const width = Math.max(0, ...sheet.lines.map((line) => line.label.length));
  for (const line of sheet.lines) out.push(`  ${line.label.padEnd(width)}  ${line.value}${line.where ? `   (${line.where})` : ''}`);
  if (!sheet.sendsHwid) out.push(`  ${sheet.withoutHwid ?? 'It sends no HWID'}: turn Force HWID off for the app: ${FORCE_HWID_OFF}`);
  for (const note of sheet.notes) out.push(`  ${note}`);
  return `${out.join('\n')}\n`;
}
