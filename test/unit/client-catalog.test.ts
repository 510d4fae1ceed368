/**
 * Invariants of the client catalog (src/api/client-catalog/). Each check is a function over a
 * list of records, run against the real catalog (no problems) and against deliberately broken
 * copies (a problem), so no check can pass by accident. What retries, the answer-shape check and
 * the redactor need is checked on the records; what the docs say is read from the pages
 * themselves: each record's row in docs/operations.md and its section and §4.30 row in
 * docs/protocol/client-api.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_CATALOG,
  apiVersionFor,
  clientCommandNames,
  clientEffect,
  clientTypes,
  findClientOp,
  hasLargeAnswer,
  mayAnswerEmpty,
  refusalAsSuccess,
  resolveClientOp,
  successFields,
} from '../../src/api/client-catalog/index.js';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { tempDir } from '../helpers/temp-dir.js';
import type { ClientOp, ClientParam } from '../../src/api/client-catalog/index.js';
import { isSensitiveName } from '../../src/api/redact.js';
import { foreignImports, itHoldsItsChecks } from '../helpers/catalog-checks.js';
import type { Broken, Check as CatalogCheck } from '../helpers/catalog-checks.js';
import { numberedSection, spans, tableRows } from '../helpers/markdown-tables.js';
import type { Row } from '../helpers/markdown-tables.js';

type Ops = readonly ClientOp[];
type Check = CatalogCheck<ClientOp>;

const ROOT = join(import.meta.dirname, '../..');
const OPERATIONS = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
const PROTOCOL = readFileSync(join(ROOT, 'docs/protocol/client-api.md'), 'utf8');

const OPERATION_ROWS = tableRows(OPERATIONS);
/** docs/operations.md's numbered client rows, by number. */
const CLIENT_ROWS = new Map(OPERATION_ROWS.filter((row) => row.heading === 'Client API' && row.cells['#'] !== undefined).map((row) => [Number(row.cells['#']), row]));

/** The row of a type beyond the specification: under that heading, naming the type, with a `kactl client` command. */
function beyondRow(type: string): Row | undefined {
  return OPERATION_ROWS.find(
    (row) => row.heading === 'Beyond the specification' && spans(row.cells['`type`'] ?? '')[0] === type && spans(row.cells['kactl command'] ?? '').some((span) => span.startsWith('kactl client ')),
  );
}

/** The docs/operations.md row of a record. */
function rowOf(op: ClientOp): Row | undefined {
  return op.docs.row === undefined ? beyondRow(op.type) : CLIENT_ROWS.get(op.docs.row);
}

/** docs/protocol/client-api.md §4.30: type → its main parameters. */
const GLANCE = new Map(
  tableRows(PROTOCOL)
    .filter((row) => row.heading.startsWith('4.30 '))
    .map((row) => [row.cells['type']!, new Set(row.cells['Main params']!.split(',').map((p) => p.trim().split(/\s/)[0]!).filter((p) => p !== '—'))]),
);

/**
 * What may follow `kactl client` as a record's `command`: every command under it, and a command
 * followed by one of its first argument's choices (`magic-link wait`).
 */
async function clientCommandLines(): Promise<Set<string>> {
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: { KACTL_CONFIG_DIR: tempDir('kactl-catalog-') }, signal: new AbortController().signal, now: Date.now });
  const client = (await buildProgram(ctx, [])).commands.find((command) => command.name() === 'client')!;
  const lines = new Set<string>();
  const walk = (command: Command, path: readonly string[]): void => {
    for (const sub of command.commands) {
      const here = [...path, sub.name()];
      lines.add(here.join(' '));
      for (const choice of sub.registeredArguments[0]?.argChoices ?? []) lines.add([...here, choice].join(' '));
      walk(sub, here);
    }
  };
  walk(client, []);
  return lines;
}
const CLIENT_COMMAND_LINES = await clientCommandLines();

/** Parameters every call carries, added by the caller: no record may list them. */
const COMMON_PARAMS = new Set(['type', 'name', 'ownerid', 'sessionid']);

// ---------------------------------------------------------------- checks

const checks = {
  typesUniqueAndWireShaped: (ops) =>
    ops.flatMap((op, i) => [
      ...(/^[A-Za-z0-9]+$/.test(op.type) ? [] : [`${op.type}: not a wire type`]),
      ...(ops.findIndex((o) => o.type === op.type) === i ? [] : [`${op.type}: two records`]),
    ]),

  effectDeclared: (ops) => ops.filter((op) => op.effect !== 'read' && op.effect !== 'write').map((op) => `${op.type}: effect ${String(op.effect)}`),

  successDeclared: (ops) =>
    ops.flatMap((op) => {
      const success = op.success as { fields?: readonly { name: string; kind: string }[]; unchecked?: string } | undefined;
      if (success === undefined) return [`${op.type}: no success shape`];
      if (success.fields !== undefined && success.unchecked !== undefined) return [`${op.type}: both fields and a reason`];
      if (success.fields !== undefined) {
        if (success.fields.length === 0) return [`${op.type}: an empty field list (give the reason instead)`];
        return success.fields.filter((f) => f.name === '' || !['string', 'array', 'object', 'present'].includes(f.kind)).map((f) => `${op.type}: field ${JSON.stringify(f)}`);
      }
      return /^\S.*\.$/.test(success.unchecked ?? '') ? [] : [`${op.type}: no fields and no sentence saying why`];
    }),

  apiDeclared: (ops) =>
    ops.flatMap((op) => [
      ...(op.api === '1.3' || op.api === '1.2' ? [] : [`${op.type}: api ${String(op.api)}`]),
      ...(op.onlyOn13 && op.api !== '1.3' ? [`${op.type}: 1.3 only, sent to ${op.api}`] : []),
    ]),

  paramsNamedOnceWithDescriptions: (ops) =>
    ops.flatMap((op) =>
      op.params.flatMap((p: ClientParam, i) => [
        ...(op.params.findIndex((q) => q.wire === p.wire) === i ? [] : [`${op.type}: ${p.wire} twice`]),
        ...(COMMON_PARAMS.has(p.wire) ? [`${op.type}: ${p.wire} is added to every call`] : []),
        ...(p.description.trim() === '' ? [`${op.type}: ${p.wire} has no description`] : []),
      ]),
    ),

  secretsAreRedacted: (ops) =>
    ops.flatMap((op) =>
      op.params
        .filter((p) => (p.secret === true) !== isSensitiveName(p.wire))
        .map((p) => (p.secret ? `${op.type}: ${p.wire} is secret but src/api/redact.ts does not mask it` : `${op.type}: ${p.wire} is masked by the redactor but not marked secret`)),
    ),

  docsRowNamesTheType: (ops) =>
    ops.flatMap((op, i) => {
      if (op.docs.row === undefined) return beyondRow(op.type) ? [] : [`${op.type}: no numbered row, and no row under "Beyond the specification"`];
      if (ops.findIndex((o) => o.docs.row === op.docs.row) !== i) return [`${op.type}: row ${op.docs.row} is another record's`];
      const row = CLIENT_ROWS.get(op.docs.row);
      if (row === undefined) return [`${op.type}: docs/operations.md has no client row ${op.docs.row}`];
      const named = spans(row.cells['`type`'] ?? '')[0];
      return named === op.type ? [] : [`${op.type}: row ${op.docs.row} names \`${named}\``];
    }),

  defaultApiAsTheRowSays: (ops) =>
    ops.flatMap((op) => {
      const says12 = (rowOf(op)?.cells['Operation'] ?? '').includes('(1.2 and 1.3)');
      return says12 === (op.api === '1.2') ? [] : [`${op.type}: sent to ${op.api}, its row ${says12 ? 'says' : 'does not say'} "(1.2 and 1.3)"`];
    }),

  docsSectionNamesTheType: (ops) =>
    ops.flatMap((op) => {
      const number = /^§(\d+\.\d+)$/.exec(op.docs.section)?.[1];
      const section = number === undefined ? undefined : numberedSection(PROTOCOL, number);
      if (section === undefined) return [`${op.type}: docs/protocol/client-api.md has no section ${op.docs.section}`];
      const problems: string[] = [];
      if (!`${section.heading}\n${section.body}`.includes(`\`${op.type}\``)) problems.push(`${op.type}: ${op.docs.section} does not name it`);
      if (section.heading.includes('(1.3 only)') !== (op.onlyOn13 === true)) problems.push(`${op.type}: onlyOn13 differs from the heading "${section.heading}"`);
      return problems;
    }),

  paramsAsTheProtocolTable: (ops) =>
    ops.flatMap((op) => {
      const listed = GLANCE.get(op.type);
      if (listed === undefined) return [`${op.type}: not in docs/protocol/client-api.md §4.30`];
      const mine = new Set(op.params.map((p) => p.wire));
      const missing = [...listed].filter((p) => !mine.has(p));
      const extra = [...mine].filter((p) => !listed.has(p));
      return missing.length + extra.length === 0 ? [] : [`${op.type}: §4.30 lists ${[...listed].join(', ') || 'none'}, the record ${[...mine].join(', ') || 'none'}`];
    }),

  commandsAreKactlCommands: (ops) =>
    ops.flatMap((op) => (op.command === undefined || CLIENT_COMMAND_LINES.has(op.command.join(' ')) ? [] : [`${op.type}: kactl client has no command "${op.command.join(' ')}"`])),

  commandsNameOneRecord: (ops) =>
    ops.flatMap((op, i) => {
      const line = op.command?.join(' ');
      if (line === undefined) return [];
      const problems: string[] = [];
      if (ops.findIndex((o) => o.command?.join(' ') === line) !== i) problems.push(`${op.type}: "${line}" is another record's command`);
      // A flows step looks a name up as a wire type first: a command spelled as another type would never be reached.
      const other = ops.find((o) => o.type === line && o !== op);
      if (other !== undefined) problems.push(`${op.type}: its command "${line}" is the wire type of ${other.type}`);
      return problems;
    }),
} satisfies Record<string, Check>;

// ---------------------------------------------------------------- broken copies

function patch(ops: Ops, type: string, change: (op: ClientOp) => ClientOp): Ops {
  if (!ops.some((op) => op.type === type)) throw new Error(`no ${type} to break`);
  return ops.map((op) => (op.type === type ? change(op) : op));
}

/** A record as a hand edit might leave it, whatever the types say. */
function loose(op: ClientOp, change: Record<string, unknown>): ClientOp {
  const edited: Record<string, unknown> = { ...op, ...change };
  return edited as unknown as ClientOp;
}

function withoutKey(op: ClientOp, key: keyof ClientOp): ClientOp {
  const copy: Record<string, unknown> = { ...op };
  delete copy[key];
  return copy as unknown as ClientOp;
}

const BROKEN: readonly Broken<ClientOp, keyof typeof checks>[] = [
  ['typesUniqueAndWireShaped', 'a type entered twice', (ops) => [...ops, ops[3]!]],
  ['typesUniqueAndWireShaped', 'a space in a type', (ops) => patch(ops, 'fetchStats', (op) => ({ ...op, type: 'fetch Stats' }))],
  ['effectDeclared', 'effect left out', (ops) => patch(ops, 'login', (op) => withoutKey(op, 'effect'))],
  ['effectDeclared', 'a seller effect', (ops) => patch(ops, 'ban', (op) => loose(op, { effect: 'bulk' }))],
  ['successDeclared', 'success left out', (ops) => patch(ops, 'file', (op) => withoutKey(op, 'success'))],
  ['successDeclared', 'no fields and no reason', (ops) => patch(ops, 'logout', (op) => ({ ...op, success: { unchecked: '' } }))],
  ['successDeclared', 'an empty field list', (ops) => patch(ops, 'chatget', (op) => ({ ...op, success: { fields: [] } }))],
  ['successDeclared', 'a field of no known kind', (ops) => patch(ops, 'var', (op) => loose(op, { success: { fields: [{ name: 'message', kind: 'text' }] } }))],
  ['apiDeclared', 'a version kactl does not speak', (ops) => patch(ops, 'check', (op) => loose(op, { api: '1.1' }))],
  ['apiDeclared', 'a 1.3-only type sent to 1.2', (ops) => patch(ops, 'loginEmail', (op) => ({ ...op, api: '1.2' }))],
  ['paramsNamedOnceWithDescriptions', 'a parameter twice', (ops) => patch(ops, 'chatsend', (op) => ({ ...op, params: [...op.params, op.params[0]!] }))],
  ['paramsNamedOnceWithDescriptions', 'sessionid listed', (ops) => patch(ops, 'check', (op) => ({ ...op, params: [{ wire: 'sessionid', description: 'the session' }] }))],
  ['secretsAreRedacted', 'a password not marked secret', (ops) => patch(ops, 'login', (op) => ({ ...op, params: op.params.map((p) => (p.wire === 'pass' ? { wire: 'pass', description: p.description } : p)) }))],
  ['secretsAreRedacted', 'a secret the redactor does not know', (ops) => patch(ops, 'ban', (op) => ({ ...op, params: op.params.map((p) => (p.wire === 'reason' ? { ...p, secret: true as const } : p)) }))],
  ['docsRowNamesTheType', 'the row of another type', (ops) => patch(ops, 'getvar', (op) => ({ ...op, docs: { ...op.docs, row: 13 } }))],
  ['docsRowNamesTheType', 'a row the page lacks', (ops) => patch(ops, 'fetchOnline', (op) => ({ ...op, docs: { ...op.docs, row: 999 } }))],
  ['docsRowNamesTheType', 'no number and no row beyond the specification', (ops) => patch(ops, 'fetchOnline', (op) => ({ ...op, docs: { section: op.docs.section } }))],
  ['defaultApiAsTheRowSays', 'chat sent to 1.3 by default', (ops) => patch(ops, 'chatget', (op) => ({ ...op, api: '1.3' }))],
  ['defaultApiAsTheRowSays', 'a 1.3 type sent to 1.2', (ops) => patch(ops, 'fetchStats', (op) => ({ ...op, api: '1.2' }))],
  ['docsSectionNamesTheType', 'a section about another type', (ops) => patch(ops, 'log', (op) => ({ ...op, docs: { ...op.docs, section: '§4.17' } }))],
  ['docsSectionNamesTheType', 'a section the page lacks', (ops) => patch(ops, 'forgot', (op) => ({ ...op, docs: { ...op.docs, section: '§4.99' } }))],
  ['docsSectionNamesTheType', 'onlyOn13 dropped', (ops) => patch(ops, 'loginEmail', (op) => withoutKey(op, 'onlyOn13'))],
  ['paramsAsTheProtocolTable', 'a parameter dropped', (ops) => patch(ops, 'register', (op) => ({ ...op, params: op.params.filter((p) => p.wire !== 'email') }))],
  ['paramsAsTheProtocolTable', 'a type the table lacks', (ops) => patch(ops, 'check', (op) => ({ ...op, type: 'checkAgain' }))],
  ['commandsAreKactlCommands', 'a command kactl does not have', (ops) => patch(ops, 'getvar', (op) => ({ ...op, command: ['var', 'fetch'] }))],
  ['commandsAreKactlCommands', 'an argument value the command does not take', (ops) => patch(ops, 'magicLinkCheck', (op) => ({ ...op, command: ['magic-link', 'resume'] }))],
  ['commandsNameOneRecord', 'two records on one command', (ops) => patch(ops, 'getvar', (op) => ({ ...op, command: ['var', 'set'] }))],
  ['commandsNameOneRecord', 'a command spelled as another type', (ops) => patch(ops, 'fetchStats', (op) => ({ ...op, command: ['check'] }))],
];

// ---------------------------------------------------------------- tests

describe('client catalog', () => {
  itHoldsItsChecks(CLIENT_CATALOG, checks, BROKEN);

  it('has a record for every numbered client row with a type of its own, in their order', () => {
    // The numbered rows whose `type` cell is exactly one type (29 is `init` again, 30 and 31 have none).
    const typed = [...CLIENT_ROWS.values()].filter((row) => /^`[^`]+`$/.test(row.cells['`type`'] ?? '')).map((row) => spans(row.cells['`type`']!)[0]);
    expect(typed).toEqual(CLIENT_CATALOG.filter((op) => op.docs.row !== undefined).map((op) => op.type));
    expect(clientTypes()).toEqual(CLIENT_CATALOG.map((op) => op.type));
  });

  it('imports nothing at runtime but its own folder (cold start)', () => {
    expect(foreignImports("import { x } from './data.js';\nimport type { Y } from '../answer.js';\nimport 'undici';", false)).toEqual(['undici']);
    const dir = join(ROOT, 'src/api/client-catalog');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('index.ts');
    for (const file of files) expect(foreignImports(readFileSync(join(dir, file), 'utf8'), false), file).toEqual([]);
  });
});

describe('lookups', () => {
  it('sends chat and user variables to 1.2 unless the profile chooses, everything else to 1.3', () => {
    expect(apiVersionFor('getvar', undefined)).toBe('1.2');
    expect(apiVersionFor('chatsend', undefined)).toBe('1.2');
    expect(apiVersionFor('getvar', '1.3')).toBe('1.3');
    expect(apiVersionFor('login', undefined)).toBe('1.3');
    expect(apiVersionFor('login', '1.2')).toBe('1.2');
    expect(apiVersionFor('noSuchType', undefined)).toBe('1.3');
  });

  it('retries reads only, and never a type it does not know', () => {
    expect(clientEffect('fetchStats')).toBe('read');
    expect(clientEffect('license')).toBe('read');
    expect(clientEffect('register')).toBe('write');
    expect(clientEffect('noSuchType')).toBe('write');
  });

  it('gives the fields a success must carry, none for a type without a record or a reason instead', () => {
    expect(successFields('login')).toEqual([{ name: 'info', kind: 'object' }]);
    expect(successFields('init')).toEqual([]);
    expect(successFields('noSuchType')).toEqual([]);
  });

  it('knows the answers the wire gets wrong', () => {
    expect(refusalAsSuccess('setvar')?.test('No variable data provided')).toBe(true);
    expect(refusalAsSuccess('login')).toBeUndefined();
    expect(mayAnswerEmpty('log')).toBe(true);
    expect(mayAnswerEmpty('check')).toBe(false);
    expect(hasLargeAnswer('file')).toBe(true);
    expect(hasLargeAnswer('var')).toBe(false);
    expect(findClientOp('Login')).toBeUndefined();
  });

  it('finds a record by its wire type or by the kactl command that sends it', () => {
    expect(resolveClientOp('2faenable')?.type).toBe('2faenable');
    expect(resolveClientOp('2fa enable')?.type).toBe('2faenable');
    expect(resolveClientOp(' var   set ')?.type).toBe('setvar');
    expect(resolveClientOp('var')?.type).toBe('var');
    expect(resolveClientOp('global-var get')?.type).toBe('var');
    expect(resolveClientOp('magic-link wait')?.type).toBe('magicLinkCheck');
    expect(resolveClientOp('stats')?.type).toBe('fetchStats');
    expect(resolveClientOp('2fa')).toBeUndefined();
    expect(resolveClientOp('regster')).toBeUndefined();
    expect(clientCommandNames()).toContain('chat send');
  });
});
