import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const SELLER_KEY = 'abcdefghijklmnopqrstuvwxyz012345';

function setup(): { env: Record<string, string>; dir: string } {
  const dir = tempDir();
  return { dir, env: { KACTL_CONFIG_DIR: dir } };
}

interface ShowJson {
  profile: { value: string | null; source: string };
  settings: Record<string, { value: unknown; source: string }>;
  configFile: string;
}

async function showJson(args: string[], env: Record<string, string>): Promise<ShowJson> {
  const result = await runMain(['profile', 'show', ...args, '--json'], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ShowJson;
}

describe('kactl profile', () => {
  it('adds a profile, makes the first one active, and stores the file 0600 in a 0700 folder', async () => {
    const { env, dir } = setup();
    const add = await runMain(['profile', 'add', 'prod', '--force', '--base-url', 'https://keyauth.win/', '--app-name', 'MyApp', '--ownerid', 'AbCdEf1234', '--seller-key', SELLER_KEY], { env });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain('Added profile prod (now active)');
    const file = path.join(dir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved.active).toBe('prod');
    expect(saved.profiles.prod).toMatchObject({ baseUrl: 'https://keyauth.win', appName: 'MyApp', sellerKey: SELLER_KEY });
  });

  it('repairs a config file left readable by others on the next write', async () => {
    const { env, dir } = setup();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: {} }), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect((await runMain(['profile', 'add', 'a', '--force', '--base-url', 'http://127.0.0.1:1'], { env })).code).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('resolves flag > environment > profile > default and says where each setting came from', async () => {
    const { env } = setup();
    await runMain(['profile', 'add', 'prod', '--force', '--base-url', 'https://keyauth.win', '--app-name', 'FromProfile', '--ownerid', 'AbCdEf1234', '--seller-key', SELLER_KEY], { env });

    const plain = await showJson([], env);
    expect(plain.profile).toEqual({ value: 'prod', source: 'profile' });
    expect(plain.settings.baseUrl).toEqual({ value: 'https://keyauth.win', source: 'profile' });
    expect(plain.settings.appName).toEqual({ value: 'FromProfile', source: 'profile' });
    expect(plain.settings.appVersion).toEqual({ value: '1.0', source: 'default' });
    // The hosted service's key is the default for its hosts.
    expect(plain.settings.publicKey).toEqual({ value: '5586b4bc69c7a4b487e4563a4cd96afd39140f919bd31cea7d1c6a1e8439422b', source: 'default' });
    expect(plain.settings.timeout).toEqual({ value: 15, source: 'default' });

    const withEnv = await showJson([], { ...env, KACTL_APP_NAME: 'FromEnv', KACTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(withEnv.settings.appName).toEqual({ value: 'FromEnv', source: 'env' });
    expect(withEnv.settings.baseUrl).toEqual({ value: 'http://127.0.0.1:9', source: 'env' });
    // Not a hosted host any more: no default public key.
    expect(withEnv.settings.publicKey).toEqual({ value: null, source: 'unset' });

    const withFlag = await showJson(['--app-name', 'FromFlag', '--timeout', '2s'], { ...env, KACTL_APP_NAME: 'FromEnv' });
    expect(withFlag.settings.appName).toEqual({ value: 'FromFlag', source: 'flag' });
    expect(withFlag.settings.timeout).toEqual({ value: 2, source: 'flag' });
  });

  it('picks the profile from --profile, then KACTL_PROFILE, then the active one', async () => {
    const { env } = setup();
    await runMain(['profile', 'add', 'one', '--force', '--base-url', 'http://127.0.0.1:1'], { env });
    await runMain(['profile', 'add', 'two', '--force', '--base-url', 'http://127.0.0.1:2'], { env });
    expect((await showJson([], env)).profile).toEqual({ value: 'one', source: 'profile' });
    expect((await showJson([], { ...env, KACTL_PROFILE: 'two' })).profile).toEqual({ value: 'two', source: 'env' });
    expect((await showJson(['--profile', 'one'], { ...env, KACTL_PROFILE: 'two' })).profile).toEqual({ value: 'one', source: 'flag' });
    expect((await showJson(['two'], env)).settings.baseUrl?.value).toBe('http://127.0.0.1:2');
  });

  it('masks secrets in show, in every format', async () => {
    const { env } = setup();
    await runMain(['profile', 'add', 'p', '--force', '--base-url', 'http://127.0.0.1:1', '--seller-key', SELLER_KEY, '--secret', 'f'.repeat(64)], { env });
    for (const args of [['--json'], ['-o', 'csv'], [], ['-o', 'table']]) {
      const { stdout, stderr, code } = await runMain(['profile', 'show', ...args], { env });
      expect(code).toBe(0);
      expect(stdout + stderr).not.toContain(SELLER_KEY);
      expect(stdout + stderr).not.toContain('f'.repeat(64));
    }
    const list = await runMain(['profile', 'list', '--json'], { env });
    expect(list.stdout).not.toContain(SELLER_KEY);
    expect(JSON.parse(list.stdout)[0].sellerKey).toBe('abcd…');
  });

  it('reads the seller key from stdin', async () => {
    const { env, dir } = setup();
    const add = await runMain(['profile', 'add', 'p', '--force', '--base-url', 'http://127.0.0.1:1', '--seller-key-stdin'], { env, stdin: `${SELLER_KEY}\n` });
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.p.sellerKey).toBe(SELLER_KEY);
  });

  it('updates an existing profile with only the fields given', async () => {
    const { env, dir } = setup();
    // Global flags given after the command must not be stored as settings.
    await runMain(['profile', 'add', 'p', '--force', '--base-url', 'http://127.0.0.1:1', '--app-name', 'A', '--verbose', '--no-color', '--timeout', '5s'], { env });
    const update = await runMain(['profile', 'add', 'p', '--force', '--ownerid', 'AbCdEf1234', '--json'], { env });
    expect(update.stderr).toContain('Updated profile p');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.p).toEqual({ baseUrl: 'http://127.0.0.1:1', appName: 'A', ownerid: 'AbCdEf1234', timeout: 5 });
  });

  it('rejects bad values with exit 2', async () => {
    const { env } = setup();
    expect((await runMain(['profile', 'add', 'p', '--base-url', 'ftp://x'], { env })).code).toBe(2);
    expect((await runMain(['profile', 'add', 'p', '--base-url', 'http://x', '--public-key', 'zz'], { env })).code).toBe(2);
    expect((await runMain(['profile', 'add', 'bad name', '--base-url', 'http://x'], { env })).code).toBe(2);
    expect((await runMain(['profile', 'add', 'p'], { env })).stderr).toContain('needs --base-url');
    expect((await runMain(['profile', 'use', 'nope'], { env })).code).toBe(2);
    expect((await runMain(['profile', 'show', '--profile', 'nope'], { env })).code).toBe(2);
  });

  it('switches and removes profiles; removing needs --yes without a terminal', async () => {
    const { env } = setup();
    await runMain(['profile', 'add', 'one', '--force', '--base-url', 'http://127.0.0.1:1'], { env });
    await runMain(['profile', 'add', 'two', '--force', '--base-url', 'http://127.0.0.1:2'], { env });
    expect((await runMain(['profile', 'use', 'two'], { env })).code).toBe(0);
    const refused = await runMain(['profile', 'remove', 'two'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(JSON.parse((await runMain(['profile', 'list', '--json'], { env })).stdout)).toHaveLength(2);
    expect((await runMain(['profile', 'remove', 'two', '--yes'], { env })).code).toBe(0);
    const left = JSON.parse((await runMain(['profile', 'list', '--json'], { env })).stdout) as { name: string }[];
    expect(left.map((p) => p.name)).toEqual(['one']);
  });
});
