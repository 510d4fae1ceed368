/**
 * `kactl apply`, `export` and `restore` through the built CLI against real sandboxes: a second
 * apply plans nothing; export → apply to an empty sandbox clones the app; --prune backs up and
 * restore puts back; a failure half way says what was done; a spec-strict sandbox (HTTP 400
 * failures) changes nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';
import { failingProxy } from '../helpers/failing-proxy.js';

const FIXTURE = path.resolve(__dirname, '../fixtures/state/clone.yaml');
const ENV = { ALICE_PW: 'alice-pass-0001' };

interface PlanAnswer {
  counts: { create: number; update: number; replace: number; delete: number; ensure: number };
  plan: { action: string; type: string; id: string }[];
  done?: unknown[];
  notDone?: unknown[];
}

let a: E2ESandbox;
let b: E2ESandbox;

beforeAll(async () => {
  [a, b] = await Promise.all([startE2ESandbox(), startE2ESandbox()]);
});

afterAll(async () => {
  await Promise.all([a.stop(), b.stop()]);
});

function writeState(text: string): string {
  const file = path.join(tempDir('kactl-state-'), 'state.yaml');
  fs.writeFileSync(file, text);
  return file;
}

describe('kactl apply', () => {
  it('creates what the file lists, then a second apply plans nothing and changes nothing', async () => {
    const first = await a.json<PlanAnswer>(['apply', '-f', FIXTURE], { env: ENV });
    expect(first.counts).toMatchObject({ create: 12, update: 1, delete: 0 });
    const before = (await a.ok(['export', '-o', 'json'])).stdout;
    const second = await a.ok(['apply', '-f', FIXTURE], { env: ENV });
    expect(second.stdout).toContain('No changes: the server already matches');
    const again = await a.json<PlanAnswer>(['apply', '-f', FIXTURE], { env: ENV });
    expect(again.plan).toEqual([]);
    expect((await a.ok(['export', '-o', 'json'])).stdout).toBe(before);
    // The user can sign in with the password the file gave (it went in; it never comes out).
    expect(before).not.toContain('alice-pass-0001');
  });

  it('clones: export, then apply to an empty sandbox, gives the same export', async () => {
    const exported = (await a.ok(['export'])).stdout;
    const file = writeState(exported);
    // The server shows only the start of a webhook URL: the export says so, and apply will not
    // make the webhook from that start.
    expect(exported).toContain('  - id: hook1\n    url: https://example.test/\n    useragent: kactl\n    authed: true\n    truncated: true\n');
    const cut = await b.kactl(['apply', '-f', file, '--dry-run']);
    expect(cut.stderr).toContain('webhook hook1: only the start of its URL is known ("https://example.test/…"), so it is not created; give the whole URL with --url hook1=URL.');
    expect(cut.stdout).not.toContain('create webhook hook1');
    const plan = await b.json<PlanAnswer>(['apply', '-f', file, '--url', 'hook1=https://example.test/hooks/kactl-ci']);
    expect(plan.counts.create).toBeGreaterThan(10);
    // The settings `kactl app set` has beyond E's updatesettings travel too (typed as in the file).
    for (const line of ['force-hwid: true', 'min-hwid-length: 12', 'min-username-length: 4', 'vpn-block: true', 'vpn-ranges: 10.8.0.0/16,10.9.0.0/16',
      'block-leaked-passwords: true', 'reset-cooldown-seconds: 3600', 'web-download-url: https://example.test/panel-download',
      'download-url: https://example.test/update.exe', 'sellix-day-product: prod-day-1', 'sellapp-lifetime-product: prod-life-1', 'msg-vpn-blocked: No VPNs here.']) {
      expect(exported).toContain(`\n  ${line}\n`);
    }
    expect((await b.ok(['export'])).stdout).toBe(exported);
    expect((await b.ok(['app', 'settings', '--json'])).stdout).toContain('"minhwid": 12');
    expect((await b.json<PlanAnswer>(['apply', '-f', file])).plan).toEqual([]);
    expect((await b.ok(['apply', '-f', file])).stdout).toContain('No changes: the server already matches');
  });

  it('--dry-run prints the plan and changes nothing', async () => {
    const file = writeState('subscriptions:\n  - { name: gold, level: 3 }\n');
    const result = await a.ok(['apply', '-f', file, '--dry-run']);
    expect(result.stdout).toContain('+ create subscription gold (level 3)');
    expect(result.stdout).toContain('Plan: 1 to create, 0 to update, 0 to replace, 0 to delete.');
    const subs = await a.json<{ name: string }[]>(['subs', 'list']);
    expect(subs.map((s) => s.name)).not.toContain('gold');
  });

  it('updates what differs, Terraform style', async () => {
    const file = writeState('variables:\n  motd: { value: "new words", authed: false }\nchannels:\n  - { name: lobby, delay: 60 }\n');
    const result = await a.ok(['apply', '-f', file]);
    expect(result.stdout).toContain('~ update variable motd (value: "welcome" → "new words")');
    expect(result.stdout).toContain('~ update channel lobby (delay: 5 s → 60 s)');
    expect((await a.ok(['apply', '-f', file])).stdout).toContain('No changes');
  });

  it('--prune needs --yes without a terminal, backs up, deletes; restore brings the records back', async () => {
    const file = writeState('licenses:\n  - { key: FIXED-KEY-0001, level: 1, expiry: 30d, note: fixed }\nvariables:\n  secret-url: { value: "https://example.test/x", authed: true }\n');
    const refused = await a.kactl(['apply', '-f', file, '--prune']);
    expect(refused.code).toBe(2);
    // One sentence: what --prune would delete, where, then the flag (was "… does not list. needs confirmation").
    expect(refused.stderr).toMatch(/^error: --prune deletes \d+ records the file does not list on http:\/\/127\.0\.0\.1:\d+ \(profile sandbox\): add --yes to confirm \(there is no terminal to ask on\)\.$/m);
    const keysBefore = (await a.json<{ key: string }[]>(['licenses', 'list'])).map((k) => k.key).sort();
    expect(keysBefore).toHaveLength(4);

    const pruned = await a.ok(['apply', '-f', file, '--prune', '--yes']);
    expect(pruned.stdout).toMatch(/- delete license GEN-/);
    expect(pruned.stdout).toContain('- delete variable motd');
    const backups = [...pruned.stderr.matchAll(/Backup of \d+ (\w+) written to (\S+)/g)].map((m) => ({ section: m[1], file: m[2]! }));
    expect(backups.map((x) => x.section).sort()).toEqual(['licenses', 'variables']);
    for (const backup of backups) expect(fs.statSync(backup.file).mode & 0o777).toBe(0o600);
    expect((await a.json<{ key: string }[]>(['licenses', 'list'])).map((k) => k.key)).toEqual(['FIXED-KEY-0001']);

    const licenseBackup = backups.find((x) => x.section === 'licenses')!.file;
    const dry = await a.ok(['restore', licenseBackup, '--dry-run']);
    expect(dry.stdout).toMatch(/\+ create license GEN-/);
    expect((await a.json<{ key: string }[]>(['licenses', 'list']))).toHaveLength(1);
    expect((await a.kactl(['restore', licenseBackup])).code).toBe(2);
    await a.ok(['restore', licenseBackup, '--yes']);
    expect((await a.json<{ key: string }[]>(['licenses', 'list'])).map((k) => k.key).sort()).toEqual(keysBefore);
    await a.ok(['restore', backups.find((x) => x.section === 'variables')!.file, '--yes']);
    expect((await a.json<{ varid: string }[]>(['vars', 'list'])).map((v) => v.varid).sort()).toEqual(['motd', 'secret-url']);
    // Restoring again changes nothing: the records are there.
    expect((await a.ok(['restore', licenseBackup, '--yes'])).stdout).toContain(`Nothing to put back: every record in ${licenseBackup} is on the server.`);
  });

  it('files (matched by URL) and team members: created once, pruned with a backup', async () => {
    const bytes = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(1024, 7));
    });
    await new Promise<void>((resolve) => bytes.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(bytes.address() as AddressInfo).port}/app.bin`;
      const file = writeState(`files:\n  - { url: "${url}" }\nteam:\n  - { role: reseller, username: shop1, email: shop1@example.test, password: shop-pass-0001, keylevels: "1" }\n`);
      const first = await b.json<PlanAnswer>(['apply', '-f', file]);
      expect(first.plan.map((p) => `${p.action} ${p.type} ${p.id}`)).toEqual([`create files ${url}`, 'create team shop1']);
      expect((await b.json<PlanAnswer>(['apply', '-f', file])).plan).toEqual([]);
      const exported = JSON.parse((await b.ok(['export', '-o', 'json'])).stdout) as { files: unknown[]; team: unknown[] };
      expect(exported.files).toEqual([{ url }]);
      expect(exported.team).toEqual([{ role: 'reseller', username: 'shop1', keylevels: '1' }]);
      const pruned = await b.ok(['apply', '-f', writeState('files: []\nteam: []\n'), '--prune', '--yes']);
      expect(pruned.stdout).toContain('- delete team member shop1');
      expect(pruned.stderr).toMatch(/Backup of 1 files written to /);
      expect(JSON.parse((await b.ok(['export', '-o', 'json'])).stdout)).toMatchObject({ files: [], team: [] });
    } finally {
      await new Promise<void>((resolve) => bytes.close(() => resolve()));
    }
  });

  it('refuses a file with the line of the problem and what was expected', async () => {
    const file = writeState('subscriptions:\n  - { name: default, level: 1 }\nlicences:\n  - { key: X }\n');
    const result = await a.kactl(['apply', '-f', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}, line 3: licences: unknown key "licences"`);
    const typed = writeState('users:\n  - username: alice\n    subscription: default\n    expiry: soon\n');
    const bad = await a.kactl(['apply', '-f', typed]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 4: users\[0\]\.expiry: "soon" is not valid here \(A duration/);
    const yaml = writeState('app:\n  enabled: true\n  enabled: false\n');
    expect((await a.kactl(['apply', '-f', yaml])).stderr).toMatch(/line 3: not valid YAML or JSON: Map keys must be unique/);
    const unset = await a.kactl(['apply', '-f', FIXTURE]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('line 25: !env ALICE_PW: ALICE_PW is not set in the environment.');
  });
});

describe('kactl apply against a failing or hosted-like server', () => {
  it('stops at a failed call and says what was done and what was not (exit 1)', async () => {
    const sb = await startE2ESandbox();
    const proxy = await failingProxy(sb.info.baseUrl, 'addchannel', 2);
    try {
      const file = writeState('channels:\n  - { name: one, delay: 0 }\n  - { name: two, delay: 0 }\n  - { name: three, delay: 0 }\n');
      const result = await sb.kactl(['apply', '-f', file, '--base-url', proxy.baseUrl]);
      expect(result.code).toBe(1);
      // Unpaced, the three go side by side: which one meets the failure is the proxy's second.
      const failed = /Stopped at create channels (\w+): /.exec(result.stderr)?.[1];
      expect(['one', 'two', 'three']).toContain(failed);
      expect(result.stderr).toMatch(new RegExp(`Not done \\(1\\):\\n {2}\\+ create channel ${failed} \\(delay 0 s\\)`));
      expect(result.stderr).toMatch(/Done \(2\):\n {2}\+ create channel \w+/);
      expect(result.stderr).toContain(`2 changes were made, 1 not. To finish, run: kactl --base-url ${proxy.baseUrl} apply -f ${file}`);
      const made = (await sb.json<{ name: string }[]>(['chats', 'list'])).map((c) => c.name);
      expect(made.sort()).toEqual(['one', 'three', 'two'].filter((n) => n !== failed).sort());
      // Applying again finishes the job.
      const again = await sb.json<PlanAnswer>(['apply', '-f', file]);
      expect(again.plan.map((p) => p.id)).toEqual([failed]);
    } finally {
      await proxy.close();
      await sb.stop();
    }
  });

  it('works against a spec-strict sandbox that answers failures with HTTP 400', async () => {
    const sb = await startE2ESandbox({ args: ['--failure-status', '400'] });
    try {
      const plan = await sb.json<PlanAnswer>(['apply', '-f', FIXTURE], { env: ENV });
      expect(plan.notDone).toEqual([]);
      expect((await sb.json<PlanAnswer>(['apply', '-f', FIXTURE], { env: ENV })).plan).toEqual([]);
      const exported = (await sb.ok(['export', '-o', 'json'])).stdout;
      expect(JSON.parse(exported)).toMatchObject({ files: [], team: [] });
    } finally {
      await sb.stop();
    }
  });
});
