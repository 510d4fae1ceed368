/**
 * kactl/seller's answer types (src/api/seller-operations.ts, written from the catalog's columns
 * by scripts/seller-types.mjs) say what a server really sends. Every operation that answers with
 * records runs against a sandbox holding records in each state that changes a field (an unused
 * and a used key, keys with and without a note, a user with and without a HWID, a session not
 * logged in, a blacklist entry of only a HWID...), and each field of each answer must be of the
 * JSON type its column declares: a string where the type says `string`, `null` only where it
 * says `| null`, absent only where the field is optional. Then the declarations kactl ships
 * (dist/lib) must let a program use the answers as what they are, without casts.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';
import { fixedParamsFor, SELLER_CATALOG, wireTypeOf, type ColumnSpec, type SellerOp } from '../../src/api/seller-catalog/index.js';
import type { SellerAnswer } from '../../src/api/seller-operations.js';
import { requireFreshBuild } from '../helpers/built.js';
import { tempDir } from '../helpers/temp-dir.js';

const SEED = {
  subscriptions: [
    { name: 'default', level: 1 },
    { name: 'pro', level: 2 },
  ],
  licenses: [
    { key: 'KEY-UNUSED-0001', level: 1, duration: '30d' },
    { key: 'KEY-NOTED-0001', level: 1, duration: '30d', note: 'batch-a' },
    { key: 'KEY-USED-0001', level: 1, duration: '30d', note: 'used' },
  ],
  users: [
    { username: 'alice', password: 'alice-pass-0001', subscription: 'default', expiry: '30d', email: 'alice@example.test' },
    { username: 'bob', password: 'bob-pass-0001', subscription: 'pro', expiry: '30d', hwid: 'HWID-BOB-0000000000001', banned: 'chargeback' },
  ],
  variables: { motd: { value: 'welcome', authed: false }, secret: { value: 'shh', authed: true } },
  uservars: [{ username: 'alice', name: 'theme', value: 'dark' }],
  channels: [{ name: 'lobby', delay: 0 }],
  webhooks: [{ id: 'hook1', url: 'https://example.test/hook', useragent: 'kactl', authed: true }],
  blacklists: [{ hwid: 'BANNED-HWID-000000001' }, { ip: '198.51.100.9' }],
  whitelists: [{ ip: '203.0.113.7' }],
  team: [
    { role: 'reseller', username: 'shop1', email: 'shop1@example.test', password: 'shop-pass-0001', keylevels: '1' },
    { role: 'manager', username: 'boss1', email: 'boss1@example.test', password: 'boss-pass-0001' },
  ],
};

/** The parameters of the operations that take some: records the seed and the setup made. */
function paramsFor(type: string, setup: { appName: string; fileUrl: string; fileId: string }): Record<string, string> {
  const table: Readonly<Record<string, Record<string, string>>> = {
    info: { key: 'KEY-USED-0001' },
    fetchnote: { key: 'KEY-NOTED-0001' },
    activate: { user: 'carol', key: 'KEY-NOTED-0001', pass: 'carol-pass-0001' },
    userdata: { user: 'alice' },
    usersub: { user: 'alice' },
    // The key a user redeemed: carol's, from `activate`.
    getkey: { user: 'carol' },
    getvar: { user: 'alice', var: 'theme' },
    retrvvar: { name: 'motd' },
    countsubs: { name: 'default' },
    getbalance: { username: 'shop1', appname: setup.appName },
    fetchfile: { id: setup.fileId },
    upload: { url: setup.fileUrl },
  };
  return table[type] ?? {};
}

let sb: Sandbox;
let fileServer: http.Server;
const answers = new Map<string, Record<string, unknown>[]>();

/** Every operation whose answer holds typed data: the reads, and the changes that answer with a record or a value. */
const TYPED = SELLER_CATALOG.filter((op) => ['list', 'object', 'flat', 'value'].includes(op.response.kind) && (op.effect === 'read' || ['activate', 'upload'].includes(op.type)));

async function callFor(op: SellerOp, params: Record<string, string>): Promise<Record<string, unknown>> {
  return sb.seller().raw(op.type, { ...params, ...fixedParamsFor(op) });
}

beforeAll(async () => {
  // The file `upload` fetches, from loopback.
  fileServer = http.createServer((_req, res) => res.end('payload'));
  await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
  const fileUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/loader.bin`;
  sb = await startSandbox({ seed: SEED });
  const seller = sb.seller();
  // A used key, a session that logged in and one that did not, a client log, a mute, a chat line, a button.
  const client = sb.client();
  await client.init();
  await client.license({ key: 'KEY-USED-0001', hwid: 'HWID-USED-000000000001' });
  await client.log({ pcuser: 'pc-1', message: 'started' });
  await sb.client().init();
  await seller.call('muteuser', { user: 'alice', time: 600 });
  await seller.raw('addbutton', { text: 'Start', value: 'start' });
  await seller.call('upload', { url: fileUrl });
  const setup = { appName: sb.app.name, fileUrl, fileId: await fileId() };
  for (const op of TYPED) {
    const params = paramsFor(op.type, setup);
    const missing = op.params.filter((p) => p.required && params[p.wire] === undefined && fixedParamsFor(op)[p.wire] === undefined);
    if (missing.length > 0) throw new Error(`paramsFor has no ${missing.map((p) => p.wire).join(', ')} for ${op.type}`);
    const body = await callFor(op, params).catch((error: unknown) => {
      throw new Error(`${op.type} ${JSON.stringify(params)}: ${String(error)}`);
    });
    answers.set(`${op.type} ${op.command.join(' ')}`, [body]);
    // Lists answer the unused key too (usedby null), an info of an unused key as well.
    if (op.type === 'info') answers.get(`${op.type} ${op.command.join(' ')}`)!.push(await callFor(op, { key: 'KEY-UNUSED-0001' }));
    if (op.type === 'userdata') answers.get(`${op.type} ${op.command.join(' ')}`)!.push(await callFor(op, { user: 'bob' }));
  }
});

afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => fileServer?.close(resolve));
});

async function fileId(): Promise<string> {
  const { files } = await sb.seller().call('fetchallfiles');
  return String(files[0]!.id);
}

/** What is wrong with a value against its column: its JSON type, a null, an absence. */
function problemsOf(where: string, value: unknown, column: ColumnSpec, present: boolean): string[] {
  if (!present) return column.optional ? [] : [`${where}: absent, and not optional`];
  if (value === null) return column.nullable ? [] : [`${where}: null, and not nullable`];
  if (column.rows !== undefined) {
    if (!Array.isArray(value)) return [`${where}: not a list of rows`];
    return value.flatMap((row, i) => rowProblems(`${where}[${i}]`, row as Record<string, unknown>, column.rows!));
  }
  const wire = wireTypeOf(column);
  const fits = wire === 'text' ? typeof value === 'string' : wire === 'numeric' ? typeof value === 'string' || typeof value === 'number' : wire === 'boolean' ? typeof value === 'boolean' : true;
  return fits ? [] : [`${where}: ${JSON.stringify(value)} is not ${wire}`];
}

function rowProblems(where: string, row: Record<string, unknown>, columns: readonly ColumnSpec[]): string[] {
  return columns.flatMap((column) => problemsOf(`${where}.${column.key}`, row[column.key], column, Object.hasOwn(row, column.key)));
}

describe('the answer types of kactl/seller', () => {
  it('are what the sandbox sends, field by field, for every operation that answers with records', () => {
    const problems: string[] = [];
    const seen = new Map<string, { nulls: number; rows: number }>();
    for (const op of TYPED) {
      const label = `${op.type} ${op.command.join(' ')}`;
      for (const body of answers.get(label) ?? []) {
        const response = op.response;
        if (response.kind === 'message' || response.kind === 'keys') continue;
        if (!('noMessage' in response && response.noMessage) && typeof body.message !== 'string') problems.push(`${label}: no message, and not noMessage`);
        if (response.kind === 'value') {
          const column = { key: response.key, header: response.key, kind: 'text', ...(response.wire ? { wire: response.wire } : {}), ...(response.nullable ? { nullable: true } : {}), ...(response.fromMessage ? { optional: true } : {}) } as ColumnSpec;
          problems.push(...problemsOf(`${label}.${response.key}`, body[response.key], column, Object.hasOwn(body, response.key)));
          continue;
        }
        const rows = response.kind === 'list' ? (body[response.key] as Record<string, unknown>[]) : response.kind === 'object' ? [body[response.key] as Record<string, unknown>] : [body];
        const columns = response.kind === 'list' ? response.columns : response.fields;
        if (!Array.isArray(rows) || rows.length === 0) problems.push(`${label}: no rows to check (the setup must make some)`);
        for (const [i, row] of (rows ?? []).entries()) {
          problems.push(...rowProblems(`${label}[${i}]`, row, columns));
          for (const column of columns) {
            const count = seen.get(`${label}.${column.key}`) ?? { nulls: 0, rows: 0 };
            seen.set(`${label}.${column.key}`, { nulls: count.nulls + (row[column.key] === null ? 1 : 0), rows: count.rows + 1 });
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The walk saw nulls where the catalog says they come (the setup is not all filled in).
    expect(seen.get('fetchallkeys list.usedby')?.nulls).toBeGreaterThan(0);
    expect(seen.get('fetchallusers list.hwid')?.nulls).toBeGreaterThan(0);
    expect(seen.get('fetchallsessions list.credential')?.nulls).toBeGreaterThan(0);
    expect(seen.get('fetchallblacks list.ip')?.nulls).toBeGreaterThan(0);
  });

  it('type a text field as a string, a number as the wire sends it, a null where there may be none', () => {
    expectTypeOf<SellerAnswer<'fetchallkeys'>['keys'][number]['status']>().toEqualTypeOf<string>();
    expectTypeOf<SellerAnswer<'fetchallkeys'>['keys'][number]['key']>().toEqualTypeOf<string>();
    expectTypeOf<SellerAnswer<'fetchallkeys'>['keys'][number]['usedby']>().toEqualTypeOf<string | null>();
    expectTypeOf<SellerAnswer<'fetchallkeys'>['keys'][number]['level']>().toEqualTypeOf<string | number>();
    expectTypeOf<SellerAnswer<'getsettings'>['enabled']>().toEqualTypeOf<boolean>();
    expectTypeOf<SellerAnswer<'userdata'>['subscriptions'][number]['subscription']>().toEqualTypeOf<string>();
    expectTypeOf<SellerAnswer<'info'>>().toHaveProperty('message').toEqualTypeOf<string | undefined>();
  });

  it('let a program built on the shipped declarations use the answers without casts', () => {
    requireFreshBuild();
    const root = path.resolve(import.meta.dirname, '..', '..');
    const folder = tempDir('kactl-answer-types-');
    const program = path.join(folder, 'program.ts');
    fs.writeFileSync(
      program,
      [
        `import { createSeller } from ${JSON.stringify(path.join(root, 'dist', 'lib', 'seller.js'))};`,
        `const seller = createSeller({ baseUrl: 'http://127.0.0.1:1', sellerKey: '0'.repeat(32) });`,
        `export async function use(): Promise<string[]> {`,
        `  const { keys } = await seller.call('fetchallkeys');`,
        `  const s: string = keys[0]!.status;`,
        `  const key: string = keys[0]!.key;`,
        `  const usedBy: string | null = keys[0]!.usedby;`,
        `  const level: number = Number(keys[0]!.level);`,
        `  const user = await seller.call('userdata', { user: 'alice' });`,
        `  const names: string[] = user.subscriptions.map((sub) => sub.subscription);`,
        `  const settings = await seller.call('getsettings');`,
        `  const enabled: boolean = settings.enabled;`,
        `  return [s, key, usedBy ?? '', String(level), ...names, String(enabled)];`,
        `}`,
      ].join('\n'),
    );
    const compiled = ts.createProgram([program], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: ['node'] });
    const errors = ts.getPreEmitDiagnostics(compiled).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });
});
