/**
 * `kactl sandbox fault add|list|clear`: make the running sandbox answer wrongly on purpose
 * (forged, stale, replayed or tampered signatures, another status, an HTML page, the bare
 * `KeyAuth_Invalid`, a delay, a reset, a cut body, the rate-limit answer), to prove a program
 * refuses or survives what a cracker's fake server or a bad network sends. Through the admin
 * route `/sandbox/faults` (admin token from the sandbox profile, as `sandbox logs`).
 */
import { Argument, InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkFaultInput } from '../../server/faults/checked-spec.js';
import { describeFilters, FAULT_APIS, FAULT_KINDS, isFaultKind, kindInfo, kindUsage } from '../../server/faults/spec.js';
import { wrapWords } from '../../io/wrap.js';
import { completeFrom } from '../completion/value-source.js';
import { addSandboxFault, clearSandboxFaults, listSandboxFaults, type FaultRequest } from '../../api/sandbox-faults.js';
import { adminTarget, adminTokenOptions, type AdminTokenOptions } from './admin.js';

interface AddOptions {
  type?: string;
  api?: string;
  user?: string;
  times?: string;
  rate?: string;
}


function parseFaultId(raw: string): string {
  if (!/^\d{1,9}$/.test(raw.trim())) throw new InvalidArgumentError('Give a fault id (a whole number, as `kactl sandbox fault list` shows) or nothing to clear them all.');
  return raw.trim();
}

/** The fault asked for, checked here with the sandbox's own rules (its types against the API catalogs): a mistake is exit 2 before any request. */
function checkedRequest(kind: string, arg: string | undefined, options: AddOptions): FaultRequest {
  const spec = checkFaultInput({ kind, arg, type: options.type, api: options.api, user: options.user, times: options.times, rate: options.rate });
  if ('error' in spec) throw new UsageError(`${spec.error}.`);
  return {
    kind,
    ...(arg === undefined ? {} : { arg }),
    ...(options.type === undefined ? {} : { type: options.type }),
    ...(options.api === undefined ? {} : { api: options.api }),
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(spec.times === undefined ? {} : { times: spec.times }),
    ...(spec.rate === undefined ? {} : { rate: spec.rate }),
  };
}

/** The ids of the running sandbox's faults, for completion; none when it cannot be asked in time. */
async function liveFaultIds(ctx: Context): Promise<string[]> {
  // Completion bounds the request with its own timeout (completion/index.ts).
  try {
    return (await listSandboxFaults(await adminTarget(ctx))).map((one) => String(one.id));
  } catch {
    return [];
  }
}


/** The kinds (the fake server's, or the others), each with what it does, from spec.ts's records: 80 columns, wrapped at spaces. */
function kindsHelp(fakeServer = false): string {
  const kinds = FAULT_KINDS.filter((kind) => (kindInfo(kind).fakeServer === true) === fakeServer);
  return kinds.flatMap((kind) => wrapWords(kindInfo(kind).help, 80, `  ${kindUsage(kind).padEnd(21)}`, ' '.repeat(23))).join('\n');
}

export function registerSandboxFault(group: Command, ctx: Context): void {
  const fault = group
    .command('fault')
    .description('make the sandbox answer wrongly on purpose: forged or replayed signatures, errors, resets, delays')
    .addHelpText(
      'after',
      `
A fault changes the sandbox's answers until it is cleared (or has fired --times
times). Faults live in the running sandbox's memory: a restart clears them.
Every faulted answer is shown in \`kactl sandbox logs\` as the client saw it.

Examples:
  $ kactl sandbox fault add --type login forge-signature   # must refuse login
  $ kactl sandbox fault add --api 1.3 stale-timestamp 10m
  $ kactl sandbox fault add --times 1 reset
  $ kactl sandbox fault list
  $ kactl sandbox fault clear`,
    );
  registerFaultAdd(fault, ctx);
  registerFaultList(fault, ctx);
  registerFaultClear(fault, ctx);
}

function registerFaultAdd(fault: Command, ctx: Context): void {
  adminTokenOptions(
    fault
      .command('add')
      .description('add a fault to the running sandbox (prints its id)')
      // No .choices(): a misspelt kind gets checkFaultInput's did-you-mean; completion still offers them.
      .addArgument(completeFrom(new Argument('<kind>', 'what the fault does: one of the kinds below'), { kind: 'names', names: () => Promise.resolve(FAULT_KINDS) }))
      .argument('[arg]', 'its argument: a DURATION (500ms, 30s, 10m) or an HTTP status CODE')
      .option('--type <types>', 'only these API types, comma-separated (login,init,check…)')
      .option('--api <apis>', `only these APIs, comma-separated: ${FAULT_APIS.join(', ')}`)
      .option('--user <username>', 'only requests about this end user')
      .option('--times <n>', 'fire N times, then stop (default: every matching request until cleared)')
      .option('--rate <p>', 'fire on this share of the matching requests, above 0 and at most 1'),
  )
    .addHelpText(
      'after',
      () => `
Kinds:
${kindsHelp()}

--type is checked against the client and seller API types: a misspelt one is
refused, as a fault that could never fire.

A fake server's answers (kactl sandbox audit sends them; a refusal becomes
the success a valid key gets):
${kindsHelp(true)}

Examples:
  $ kactl sandbox fault add --type login forge-signature
  $ kactl sandbox fault add --type check --times 1 replay
  $ kactl sandbox fault add --api seller --rate 0.5 status 503
  $ kactl sandbox fault add --user alice delay 3s`,
    )
    .action(async (kind: string, arg: string | undefined, options: AddOptions & AdminTokenOptions) => {
      // Checked before the sandbox is looked for: a mistake is exit 2 whatever the setup.
      const request = checkedRequest(kind, arg, options);
      const added = await addSandboxFault(await adminTarget(ctx, options), request);
      if (ctx.output.wantsJson) return ctx.output.json(added);
      ctx.output.success(`Fault ${added.id} added: ${added.arg === null ? added.kind : `${added.kind} ${added.arg}`} on ${describeFilters(added)}.`);
      const previous = isFaultKind(added.kind) ? kindInfo(added.kind).needsPrevious : undefined;
      if (previous === 'last') ctx.output.note('It sends again an answer sent from now on: a request it matches gets the last answer to its client (its session) since the fault was added.');
      if (previous === 'of-type') ctx.output.note('It sends again an answer sent from now on: a request it matches gets the last answer of its type to its client (its IP and app) since the fault was added.');
      ctx.output.note(`Clear it with: kactl sandbox fault clear ${added.id}`);
    });
}

function registerFaultList(fault: Command, ctx: Context): void {
  adminTokenOptions(fault.command('list').description('list the faults the sandbox holds, with how many times each fired'))
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox fault list\n  $ kactl sandbox fault list --json')
    .action(async (options: AdminTokenOptions) => {
      const faults = await listSandboxFaults(await adminTarget(ctx, options));
      if (ctx.output.wantsJson) return ctx.output.json(faults);
      if (faults.length === 0) return ctx.output.note('No faults: the sandbox answers as it should.');
      await ctx.output.list(
        faults.map((one) => ({ id: one.id, kind: one.kind, arg: one.arg ?? '', filters: describeFilters(one), fired: one.fired })),
        [{ key: 'id' }, { key: 'kind' }, { key: 'arg' }, { key: 'filters' }, { key: 'fired' }],
      );
    });
}

function registerFaultClear(fault: Command, ctx: Context): void {
  adminTokenOptions(
    fault
      .command('clear')
      .description('remove one fault by id, or all of them')
      .addArgument(completeFrom(new Argument('[id]', 'the fault to remove (default: all)').argParser(parseFaultId), { kind: 'names', names: liveFaultIds })),
  )
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox fault clear       # all\n  $ kactl sandbox fault clear 2')
    .action(async (id: string | undefined, options: AdminTokenOptions) => {
      const target = await adminTarget(ctx, options);
      const { cleared, faults } = await clearSandboxFaults(target, id).catch((error: unknown) => {
        // The only refusal of an id this command already checked: no fault has it.
        if (id === undefined || !(error instanceof UsageError)) throw error;
        throw new UsageError(`No fault has id ${id} in the sandbox.`, { hints: ['See the faults it holds with: kactl sandbox fault list'] });
      });
      if (ctx.output.wantsJson) return ctx.output.json({ cleared, faults });
      ctx.output.success(id === undefined ? `Cleared ${cleared} fault${cleared === 1 ? '' : 's'}.` : `Fault ${id} cleared.`);
    });
}
