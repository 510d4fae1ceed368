/**
 * `kactl sandbox audit [options] -- COMMAND [ARGS…]`: does a program refuse a fake server, a
 * doctored answer, an expired, banned or foreign key, and does it still start for a paying
 * customer? The program runs once per scenario against a fresh sandbox of this process, put back
 * to the same state before each (kactl/sandbox's `audit()`, src/sandbox/audit/); the report is a
 * table (audit-text.ts) or JSON, optionally JUnit XML too (audit-junit.ts). Exit 0 when every
 * graded scenario passed, 1 when one did not.
 */
import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, KactlError, UsageError } from '../../errors.js';
import { AUDIT_SCENARIOS, pickScenarios } from '../../sandbox/audit/catalog.js';
import type { AuditReport } from '../../sandbox/audit/report.js';
import type { AuditApi } from '../../sandbox/audit/scenario-types.js';
import { createProgress } from '../../io/progress.js';
import { auditJunit } from './audit-junit.js';
import { auditReportText, scenarioListText } from './audit-text.js';

interface AuditCliOptions {
  seed?: string;
  scenarios?: string;
  skip?: string;
  api?: AuditApi;
  acceptedWhen?: string;
  keyStdin?: boolean;
  junit?: string;
  list?: boolean;
}

function idList(raw: string | undefined): string[] | undefined {
  const ids = raw?.split(',').map((id) => id.trim()).filter((id) => id !== '');
  return ids === undefined || ids.length === 0 ? undefined : ids;
}

function acceptedWhen(raw: string | undefined): RegExp | undefined {
  if (raw === undefined) return undefined;
  try {
    return new RegExp(raw);
  } catch (error) {
    throw new UsageError(`--accepted-when is not a regular expression: ${(error as Error).message}.`);
  }
}

export function registerSandboxAudit(group: Command, ctx: Context): void {
  group
    .command('audit')
    .description('run your program once per scenario (valid key, fake server, doctored answers, expired, banned…) and report which it gets wrong')
    .argument('[command...]', 'the program and its arguments (after --)')
    .passThroughOptions()
    .option('--seed <file>', 'apply this state file before the audit makes its test customer (app settings, variables your program needs)')
    .option('--scenarios <list>', 'run only these scenarios, comma-separated (--list names them)')
    .option('--skip <list>', 'run every scenario but these, comma-separated')
    .addOption(new Option('--api <version>', 'the client API your program speaks (default 1.3): KEYAUTH_URL ends in /api/<version>/').choices(['1.3', '1.2']))
    .option('--accepted-when <regex>', 'the program started when its stdout matches this, instead of when it exits 0')
    .option('--key-stdin', 'also write the license key and a newline to its stdin (programs that ask "Enter license:")')
    .option('--junit <file>', 'also write a JUnit XML report, one testcase per scenario')
    .option('--list', 'list the scenarios, what the sandbox does in each and what a sound program does, then exit')
    .addHelpText('after', HELP)
    .action(async (words: string[], options: AuditCliOptions) => {
      if (options.list) return listScenarios(ctx, options.api);
      await auditRun(ctx, words, options);
    });
}

const HELP = `
Each scenario runs the program once against a sandbox in a known state (your
--seed, then a test customer: a fresh license key and a user, both valid 30
days), put back before each. The program finds the sandbox and its test
identity in its environment: KEYAUTH_URL (the API URL, e.g.
http://127.0.0.1:PORT/api/1.3/), KEYAUTH_NAME, KEYAUTH_OWNERID, KEYAUTH_VERSION,
KEYAUTH_PUBLIC_KEY, KEYAUTH_SECRET, KEYAUTH_LICENSE, KEYAUTH_USERNAME,
KEYAUTH_PASSWORD, KACTL_AUDIT_SCENARIO (kactl sandbox connect <sdk> --audit
prints the lines that make each library read them).

Exit status 0 means the program started, anything else that it refused, unless
--accepted-when is given. A crash (a signal, an uncaught exception) counts as a
refusal, with a note. A run still going after --timeout (default 10s) is hung,
a failure in any scenario. kactl exits 0 when every graded scenario passed, 1
when one did not, and names the worst finding.

Examples:
  $ kactl sandbox audit --list
  $ kactl sandbox audit -- node examples/audit/sound.mjs
  $ kactl sandbox audit --junit audit.xml -- python3 app.py
  $ kactl sandbox audit --scenarios valid-license,forged -o json -- ./app
  $ kactl sandbox audit --key-stdin --accepted-when Welcome -- ./app`;

function listScenarios(ctx: Context, api: AuditApi | undefined): void {
  // Without --api, every scenario; with it, those of that API.
  if (ctx.output.wantsJson) return ctx.output.json(AUDIT_SCENARIOS.filter((info) => api === undefined || info.apis.includes(api)));
  ctx.io.out(scenarioListText(AUDIT_SCENARIOS, api, Math.max(40, ctx.io.columns - 1)));
}

function checkedFormat(ctx: Context): void {
  const format = ctx.globals.output;
  if (format !== undefined && format !== 'table' && format !== 'json') throw new UsageError('kactl sandbox audit prints a table or JSON: use -o table or -o json.');
}

export async function auditRun(ctx: Context, words: readonly string[], options: AuditCliOptions): Promise<void> {
  if (words.length === 0 || words[0] === '') throw new UsageError('Give the program to audit after --, e.g. kactl sandbox audit -- python3 app.py (or --list for the scenarios).');
  checkedFormat(ctx);
  const api = options.api ?? '1.3';
  const picked = { scenarios: idList(options.scenarios), skip: idList(options.skip) };
  // Checked before the sandbox starts; the count sizes the progress bar.
  const total = pickScenarios(api, picked.scenarios, picked.skip).length;
  const pattern = acceptedWhen(options.acceptedWhen);
  const { audit } = await import('../../sandbox/audit/runner.js');
  const progress = createProgress(ctx.io, { total, label: 'audit' });
  let report: AuditReport;
  try {
    report = await audit({
      command: words,
      api,
      ...(picked.scenarios === undefined ? {} : { scenarios: picked.scenarios }),
      ...(picked.skip === undefined ? {} : { skip: picked.skip }),
      ...(ctx.globals.timeout === undefined ? {} : { timeoutMs: ctx.globals.timeout * 1000 }),
      ...(pattern === undefined ? {} : { acceptedWhen: pattern }),
      keyStdin: options.keyStdin === true,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      env: ctx.env,
      signal: ctx.signal,
      onScenario: (result, index) => {
        progress.update(index + 1);
        progress.above(() => ctx.verbose(`audit ${index + 1}/${total}: ${result.id} ${result.status} (${result.did})`));
      },
    });
  } finally {
    progress.stop();
  }
  if (ctx.output.wantsJson) ctx.output.json(report);
  else ctx.io.out(auditReportText(report, Math.max(40, ctx.io.columns - 1)));
  if (!report.passed) ctx.exitCode = ExitCode.failure;
  // After the report: a file that cannot be written still leaves the results on screen.
  if (options.junit !== undefined) writeJunit(options.junit, report);
}

/** Writes the JUnit report, whatever the audit found (a CI server reads the failures from it). */
function writeJunit(file: string, report: AuditReport): void {
  try {
    fs.writeFileSync(file, auditJunit(report));
  } catch (error) {
    throw new KactlError(`Could not write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, 'FAILURE');
  }
}
