/**
 * Issue 28 through the built CLI against real sandboxes: a license customer (made by `client
 * license --key K`: username K, password K) signs in with the key again after delete → restore,
 * after apply of an export, and after the CI loop `sandbox exec --export-on-exit` → `sandbox
 * exec --seed`; `kactl restore` of a state file names `kactl apply -f`; a dry run's plan names
 * every field the real apply changes, for every record kind; `banned: false` unbans; an export
 * leaves out the client messages every new app has.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;
const KEY = 'CUST-KEY-0001';

let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
});

afterAll(async () => {
  await sb.stop();
});

function backupOf(stderr: string): string {
  const file = /written to (\S+)/.exec(stderr)?.[1];
  expect(file, stderr).toBeDefined();
  return file!;
}

function writeFile(name: string, text: string): string {
  const file = path.join(tempDir('kactl-carry-'), name);
  fs.writeFileSync(file, text);
  return file;
}

/** `client license --key KEY` from a new session: exit 0 when the customer gets in. */
async function signsInWithKey(key: string): Promise<void> {
  await sb.ok(['client', 'init', '--new']);
  const result = await sb.kactl(['client', 'license', '--key', key]);
  expect(result.code, result.stderr).toBe(0);
}

describe('a license customer signs in with their key again (28.1)', () => {
  it('after users delete --all and restore of the users backup', async () => {
    await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30', '--mask', KEY]);
    await signsInWithKey(KEY);
    const deleted = await sb.ok(['users', 'delete', '--all', '--yes']);
    expect(deleted.stderr).toContain(`1 license customer (${KEY}): kactl restore gives them their key as password again`);
    const restored = await sb.ok(['restore', backupOf(deleted.stderr), '--yes']);
    expect(restored.stdout).toContain(`+ create user ${KEY} (license customer: password = key, subscription default until `);
    expect(restored.stderr).toContain('Put back 1 record');
    expect(restored.stderr).not.toContain('random password');
    // The key is still on the server, used: it cannot grant the subscription again, and that is said.
    expect(restored.stderr).toContain(`1 subscription comes back without the key that granted it (KEY - in users get): this run does not redeem the key for its user (it is used on the server already, and a used key cannot be redeemed again, or it is not in the file): ${KEY} (default, key ${KEY}).`);
    await signsInWithKey(KEY);
  }, SLOW);

  it('after apply of an export', async () => {
    const file = writeFile('export.yaml', (await sb.ok(['export'])).stdout);
    await sb.ok(['users', 'delete', '--all', '--yes']);
    const applied = await sb.ok(['apply', '-f', file]);
    expect(applied.stdout).toContain(`+ create user ${KEY} (license customer: password = key,`);
    await signsInWithKey(KEY);
  }, SLOW);

  it('after the sandbox exec loop: --export-on-exit, then --seed (and the key grants the subscription again)', async () => {
    const dir = tempDir('kactl-carry-exec-');
    const after = path.join(dir, 'after.yaml');
    const bin = tempDir('kactl-carry-bin-');
    fs.writeFileSync(path.join(bin, 'kactl'), `#!/bin/sh\nexec "${process.execPath}" "${KACTL_BIN}" "$@"\n`, { mode: 0o755 });
    const exec = (args: readonly string[]) => runKactl(['sandbox', 'exec', ...args], { configDir: tempDir('kactl-carry-config-'), cwd: dir, env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, timeoutMs: 90_000 });
    const made = `kactl licenses create --amount 1 --expiry 30 --mask ${KEY} && kactl client init --new && kactl client license --key ${KEY}`;
    const first = await exec(['--export-on-exit', after, '--', 'sh', '-c', made]);
    expect(first.code, first.stderr).toBe(0);
    expect(fs.readFileSync(after, 'utf8')).toContain(`        key: ${KEY}\n`);
    const again = `kactl client init --new && kactl client license --key ${KEY} && kactl users subscriptions ${KEY}`;
    const second = await exec(['--seed', after, '--', 'sh', '-c', again]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`default\\t\\S+\\t${KEY}\\tno`));
  }, SLOW);
});

describe('kactl restore of a state file (28.6)', () => {
  it('says in one sentence to use kactl apply -f, for YAML and JSON exports (exit 2)', async () => {
    for (const [name, text] of [['export.yaml', (await sb.ok(['export'])).stdout], ['export.json', (await sb.ok(['export', '-o', 'json'])).stdout]] as const) {
      const file = writeFile(name, text);
      const result = await sb.kactl(['restore', file, '--yes']);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`error: ${file} is a state file (as kactl export writes), not a backup: kactl apply -f ${file} puts it on the server (--dry-run shows the plan first).`);
    }
    const other = writeFile('notes.txt', 'just words\n');
    expect((await sb.kactl(['restore', other])).stderr).toContain(`Cannot read ${other} as a kactl backup (not JSON).`);
  });
});

type Exported = Record<string, unknown>;

/** `section id` → the record, for the sections a plan line names by id. */
function recordsOf(state: Exported): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const add = (singular: string, rows: unknown, id: (r: Record<string, unknown>) => string): void => {
    for (const row of (rows ?? []) as Record<string, unknown>[]) out.set(`${singular} ${id(row)}`, row);
  };
  add('license', state.licenses, (r) => String(r.key));
  add('user', state.users, (r) => String(r.username));
  add('uservar', state.uservars, (r) => `${String(r.username)}/${String(r.name)}`);
  add('channel', state.channels, (r) => String(r.name));
  add('webhook', state.webhooks, (r) => String(r.id));
  add('subscription', state.subscriptions, (r) => String(r.name));
  for (const [name, v] of Object.entries((state.variables ?? {}) as Record<string, Record<string, unknown>>)) out.set(`variable ${name}`, v);
  out.set('app settings', (state.app ?? {}) as Record<string, unknown>);
  return out;
}

/** How a plan line names a field of the export (`used_by` is "used by"; an unban takes the ban reason with the status). */
const PLAN_WORDS: Record<string, readonly string[]> = { used_by: ['used by'], ban_reason: ['ban reason', 'status: banned'] };

describe('a dry run names every field the apply changes (28.5)', () => {
  it('for keys, variables, user variables, channels, users, webhooks, subscriptions and settings', async () => {
    const before = writeFile('before.yaml', [
      'app:\n  msg-key-used: "Used."\n',
      'subscriptions:\n  - { name: gold, level: 3 }\n',
      'licenses:\n  - { key: DRY-KEY-0001, level: 1, duration: 30d, note: old }\n  - { key: DRY-KEY-0002, level: 1, duration: 1d, status: banned, ban_reason: chargeback }\n',
      'users:\n  - { username: carol, subscription: default, expiry: 30d, banned: fraud, hwid: CAROL-HWID-00000000001 }\n',
      'variables:\n  motd: { value: old words, authed: false }\n',
      'uservars:\n  - { username: carol, name: theme, value: dark }\n',
      'channels:\n  - { name: lobby, delay: 5 }\n',
      'webhooks:\n  - { id: hook, url: "https://a.test/x", useragent: Bot, authed: true }\n',
    ].join(''));
    await sb.ok(['apply', '-f', before]);
    const after = writeFile('after.yaml', [
      'app:\n  msg-key-used: "Taken."\n',
      'subscriptions:\n  - { name: gold, level: 4 }\n',
      'licenses:\n  - { key: DRY-KEY-0001, level: 2, duration: 1d, note: new }\n  - { key: DRY-KEY-0002, level: 1, duration: 1d }\n',
      'users:\n  - { username: carol, subscription: default, expiry: 30d, banned: false, hwid: CAROL-HWID-00000000002 }\n',
      'variables:\n  motd: { value: new words, authed: true }\n',
      'uservars:\n  - { username: carol, name: theme, value: light, readonly: true }\n',
      'channels:\n  - { name: lobby, delay: 60 }\n',
      'webhooks:\n  - { id: hook, url: "https://b.test/y" }\n',
    ].join(''));
    const old = recordsOf(JSON.parse((await sb.ok(['export', '-o', 'json'])).stdout) as Exported);
    const dry = (await sb.ok(['apply', '-f', after, '--dry-run'])).stdout;
    const applied = (await sb.ok(['apply', '-f', after])).stdout;
    expect(applied).toBe(dry);
    const now = recordsOf(JSON.parse((await sb.ok(['export', '-o', 'json'])).stdout) as Exported);
    const lines = dry.split('\n');
    const changed: string[] = [];
    for (const [id, record] of now) {
      const was = old.get(id) ?? {};
      for (const field of new Set([...Object.keys(record), ...Object.keys(was)])) {
        if (field === 'subscriptions' || JSON.stringify(record[field]) === JSON.stringify(was[field])) continue;
        changed.push(`${id} ${field}`);
        const line = lines.find((l) => l.includes(` ${id} (`));
        expect(line, `${id}: ${field} changed, and no plan line names ${id}`).toBeDefined();
        const words = PLAN_WORDS[field] ?? [field];
        expect(words.some((word) => line!.includes(word)), `${id}: ${field} changed, and the plan line does not say so: ${line}`).toBe(true);
      }
    }
    // Every kind changed, so the comparison above checked each.
    for (const id of ['license DRY-KEY-0001', 'license DRY-KEY-0002', 'user carol', 'variable motd', 'uservar carol/theme', 'channel lobby', 'webhook hook', 'subscription gold', 'app settings']) {
      expect(changed.some((c) => c.startsWith(`${id} `)), `${id} did not change`).toBe(true);
    }
    expect(dry).toContain('± replace license DRY-KEY-0001 (level: 1 → 2, note: "old" → "new", duration: "30d" → "1d")');
    // banned: false lifts the ban (28.9: it was refused as "expected string").
    expect(dry).toContain('~ update user carol (hwid: "CAROL-HWID-00000000001" → "CAROL-HWID-00000000002", banned: "fraud" → false)');
    expect(now.get('user carol')!.banned).toBeUndefined();
    expect((await sb.ok(['apply', '-f', after])).stdout).toContain('No changes');
  }, SLOW);

  it('a ban the file leaves out stays, and apply says so', async () => {
    await sb.ok(['users', 'ban', 'carol', '--reason', 'again']);
    const file = writeFile('plain.yaml', 'users:\n  - { username: carol, subscription: default, expiry: 30d }\n');
    const result = await sb.ok(['apply', '-f', file]);
    expect(result.stderr).toContain('user carol is banned on the server ("again") and the file does not say banned:, so the ban stays; banned: false lifts it.');
  });
});

describe('export (33.7)', () => {
  it('leaves out the client messages every new app has, and writes the ones the seller changed', async () => {
    const fresh = await startE2ESandbox();
    try {
      expect((await fresh.ok(['export'])).stdout).not.toContain('msg-');
      await fresh.ok(['app', 'set', '--msg-key-used', 'That key is taken.']);
      const changed = (await fresh.ok(['export'])).stdout;
      expect(changed.match(/ {2}msg-/g)).toHaveLength(1);
      expect(changed).toContain('  msg-key-used: That key is taken.\n');
    } finally {
      await fresh.stop();
    }
  });
});
