/**
 * Destructive actions through the built CLI against a real sandbox: refused without a terminal
 * unless --yes (nothing deleted); with --yes a backup holding the deleted records is written
 * first and its path printed; --no-backup skips it; --dry-run sends nothing. On a real terminal
 * (a pseudo-terminal), the application name must be typed, and y/N guards a single delete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';

let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
});

afterAll(async () => {
  await sb.stop();
});

const backupsDir = (): string => path.join(sb.configDir, 'data', 'backups');
const backups = (): string[] => (fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()).sort() : []);

async function licenseKeys(): Promise<string[]> {
  return (await sb.json<{ key: string }[]>(['licenses', 'list'])).map((k) => k.key).sort();
}

async function createLicenses(amount: number): Promise<string[]> {
  return sb.json<string[]>(['licenses', 'create', '--amount', String(amount), '--expiry', '3']);
}

/**
 * Runs kactl on a pseudo-terminal; whenever the screen shows `prompt`, types the next answer.
 * Returns the exit code and everything the terminal showed.
 */
function onTerminal(args: readonly string[], prompt: string, answers: readonly string[]): Promise<{ code: number; screen: string }> {
  return new Promise((resolve) => {
    const term = spawnPty(process.execPath, [KACTL_BIN, ...args], { cols: 120, rows: 30, env: cleanEnv(sb.configDir) });
    let screen = '';
    let answered = 0;
    term.onData((data) => {
      screen += data;
      const asked = screen.split(prompt).length - 1;
      if (asked > answered && answered < answers.length) term.write(`${answers[answered++]}\r`);
    });
    term.onExit(({ exitCode }) => resolve({ code: exitCode, screen }));
  });
}

describe('changes to many records', () => {
  it('are refused without a terminal and without --yes: exit 2, nothing deleted', async () => {
    const keys = await createLicenses(5);
    const result = await sb.kactl(['licenses', 'delete', '--all']);
    expect(result.code).toBe(2);
    // The server and the profile are named: two sandboxes may both hold the same app name.
    expect(result.stderr).toContain(`error: Delete every license on ${sb.info.baseUrl} (profile sandbox): add --yes to confirm (there is no terminal to ask on).`);
    expect(await licenseKeys()).toEqual([...keys].sort());
    expect(backups()).toEqual([]);
  });

  it('--dry-run prints the request with the seller key masked and sends nothing', async () => {
    const before = await licenseKeys();
    const result = await sb.kactl(['licenses', 'delete', '--unused', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`GET ${sb.info.baseUrl}/api/seller/?sellerkey=${sb.info.sellerKey.slice(0, 4)}…&type=delunused\n`);
    expect(result.stdout + result.stderr).not.toContain(sb.info.sellerKey);
    expect(await licenseKeys()).toEqual(before);
    expect(backups()).toEqual([]);
  });

  it('with --yes: a backup of the records is written first, its path printed, then they are deleted', async () => {
    const before = await licenseKeys();
    expect(before.length).toBeGreaterThan(0);
    const result = await sb.kactl(['licenses', 'delete', '--all', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(await licenseKeys()).toEqual([]);
    const [name] = backups();
    expect(name).toMatch(new RegExp(`-${sb.info.app.name}-delalllicenses\\.json$|-sandbox-delalllicenses\\.json$`));
    const file = path.join(backupsDir(), name!);
    expect(result.stderr).toContain(`Backup of ${before.length} records written to ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const backup = JSON.parse(fs.readFileSync(file, 'utf8')) as { source: unknown; server: unknown; records: { key: string }[] };
    expect(backup.source).toEqual({ type: 'fetchallkeys', key: 'keys' });
    expect(backup.records.map((r) => r.key).sort()).toEqual(before);
    expect(backup.server).toBe(sb.info.baseUrl);
  });

  it('--no-backup skips the backup', async () => {
    await sb.kactl(['users', 'create', '--username', 'u1', '--password', 'p', '--sub', 'default', '--expiry', '1']);
    const count = backups().length;
    const result = await sb.kactl(['users', 'delete', '--all', '--yes', '--no-backup']);
    expect(result.code, result.stderr).toBe(0);
    expect(await sb.json(['users', 'list'])).toEqual([]);
    expect(backups()).toHaveLength(count);
  });

  it('on a terminal, ask for the application name: a wrong name changes nothing, the right one proceeds', async () => {
    const keys = await createLicenses(3);
    const count = backups().length;
    const wrong = await onTerminal(['licenses', 'delete', '--all'], 'to confirm', ['not-the-app']);
    expect(wrong.code).toBe(2);
    expect(wrong.screen).toContain(`Type the application name (${sb.info.app.name}) to confirm`);
    // How many, of which app, on which server, through which profile (the list was read to count them).
    expect(wrong.screen.replace(/\s+/g, ' ')).toContain(`warning: Delete 3 licenses of ${sb.info.app.name} on ${sb.info.baseUrl} (profile sandbox).`);
    const subset = await onTerminal(['licenses', 'delete', '--unused'], 'to confirm', ['not-the-app']);
    expect(subset.code).toBe(2);
    expect(subset.screen.replace(/\s+/g, ' ')).toContain(`warning: Delete every unused license of ${sb.info.app.name} on ${sb.info.baseUrl} (profile sandbox); 3 records it may touch are backed up first.`);
    expect(await licenseKeys()).toEqual([...keys].sort());
    expect(backups()).toHaveLength(count);
    const right = await onTerminal(['licenses', 'delete', '--all'], 'to confirm', [sb.info.app.name]);
    expect(right.code, right.screen).toBe(0);
    expect(await licenseKeys()).toEqual([]);
    expect(backups()).toHaveLength(count + 1);
  });
});

describe('single-record deletes', () => {
  it('need --yes without a terminal, and y on one', async () => {
    await sb.kactl(['vars', 'create', '--name', 'motd', '--data', 'hi']);
    const refused = await sb.kactl(['vars', 'delete', 'motd']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Delete a global variable (motd) on ${sb.info.baseUrl} (profile sandbox): add --yes`);
    expect(await sb.json(['vars', 'list'])).toHaveLength(1);
    const declined = await onTerminal(['vars', 'delete', 'motd'], '(y/N)', ['n']);
    expect(declined.code).toBe(2);
    expect(declined.screen.replace(/\s+/g, ' ')).toContain(`Delete a global variable (motd) on ${sb.info.baseUrl} (profile sandbox)? (y/N)`);
    expect(await sb.json(['vars', 'list'])).toHaveLength(1);
    const accepted = await onTerminal(['vars', 'delete', 'motd'], '(y/N)', ['y']);
    expect(accepted.code, accepted.screen).toBe(0);
    expect(await sb.json(['vars', 'list'])).toEqual([]);
  });
});
