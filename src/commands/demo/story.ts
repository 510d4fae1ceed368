/**
 * The demo's story: a seller makes licenses and a chat channel; a client initializes,
 * registers with one key, logs in, upgrades with a second key, sets and reads a variable, sends
 * and reads a chat message, turns 2FA on (the demo plays the authenticator app and computes the
 * codes itself), logs in with a code, and ends the session.
 *
 * The sandbox runs in this process (port 0, in-memory store, no rate limits) and the profile
 * lives in a temporary folder; both go away when the demo ends, whatever happens.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../../context.js';
import type { EnvRecord } from '../../env.js';
import { readEnv } from '../../env.js';
import { NetworkError } from '../../errors.js';
import type { SandboxInfo } from '../../server/start.js';
import { Transcript } from './transcript.js';
import type { RunKactl } from '../../flows/run-kactl.js';
import { sandboxProfileFields } from '../../config/sandbox-profile.js';
import { ConfigStore } from '../../config/store.js';

const PROFILE = 'demo';
const USER = 'alice';
const PASSWORD = 'correct-horse-battery-staple';
const PASSWORD_FILE = '< alice-password.txt';
/** The sandbox, like the real service, wants HWIDs of at least 20 characters. */
const DEMO_HWID = 'kactl-demo-machine-0001';

/** The environment each step sees: the temporary config folder, the user's colour wishes, nothing else. */
function stepEnv(ctx: Context, configDir: string): EnvRecord {
  const env: Record<string, string> = { KACTL_CONFIG_DIR: configDir, KACTL_DATA_DIR: path.join(configDir, 'data') };
  const noColor = readEnv(ctx.env, 'NO_COLOR');
  const forceColor = readEnv(ctx.env, 'FORCE_COLOR');
  if (noColor !== undefined || !ctx.globals.color) env.NO_COLOR = noColor ?? '1';
  if (forceColor !== undefined && ctx.globals.color) env.FORCE_COLOR = forceColor;
  return env;
}

/** What `kactl sandbox start` saves, for the demo's own sandbox. */
async function saveDemoProfile(configDir: string, info: SandboxInfo): Promise<void> {
  new ConfigStore(configDir).update((config) => {
    config.profiles[PROFILE] = { ...sandboxProfileFields(info, { rateLimited: false }), hwid: DEMO_HWID };
    config.active = PROFILE;
  });
}

// eslint-disable-next-line no-control-regex -- colour codes are what it removes
const COLOR_CODES = /\u001b\[[0-9;]*m/g;

/** The `secret` line of `kactl client 2fa enable` (tab-separated piped, aligned and maybe coloured on a terminal). */
function secretFrom(stdout: string): string {
  const line = stdout.replace(COLOR_CODES, '').split('\n').find((l) => /^secret\s/.test(l));
  const secret = line?.replace(/^secret\s+/, '').trim();
  if (!secret) throw new NetworkError('`kactl client 2fa enable` printed no secret.');
  return secret;
}

/** The code an authenticator app would show now for `secret` (SHA-1, 6 digits, 30 s). */
async function authenticatorCode(secret: string, nowMs: number): Promise<string> {
  const { Secret, TOTP } = await import('otpauth');
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: nowMs });
}

async function tellStory(ctx: Context, t: Transcript, baseUrl: string): Promise<void> {
  // Only what outlives the demo is pointed at: the sandbox, its profile and the password file
  // below exist while it runs and are gone when it ends.
  t.say(`A sandbox is running in this process on ${baseUrl} (store in memory), with a profile "${PROFILE}" in a temporary config folder; both end with the demo.`);
  t.say(`The steps read ${USER}'s password from stdin; "${PASSWORD_FILE}" stands for a file holding it.`);

  t.section('The seller creates two licenses and a chat channel');
  const keys = (await t.run(['licenses', 'create', '--amount', '2', '--expiry', '30'])).stdout.split('\n').filter((k) => k.trim() !== '');
  const [firstKey, secondKey] = keys;
  if (firstKey === undefined || secondKey === undefined) throw new NetworkError('`kactl licenses create` printed fewer than two keys.');
  await t.run(['chats', 'create', '--name', 'general', '--delay-seconds', '0']);

  t.section(`A client opens a session, registers ${USER} with the first key and logs in`);
  await t.run(['client', 'init']);
  await t.run(['client', 'register', '--username', USER, '--key', firstKey, '--email', 'alice@example.com', '--password-stdin'], { input: PASSWORD, redirect: PASSWORD_FILE });
  await t.run(['client', 'login', '--username', USER, '--password-stdin'], { input: PASSWORD, redirect: PASSWORD_FILE });

  t.section('The second key upgrades the account (upgrade logs no one in)');
  await t.run(['client', 'upgrade', '--username', USER, '--key', secondKey]);

  t.section(`${USER} keeps a variable and chats`);
  await t.run(['client', 'var', 'set', 'theme', 'dark']);
  await t.run(['client', 'var', 'get', 'theme']);
  await t.run(['client', 'chat', 'send', 'general', 'Hello from the kactl demo!']);
  await t.run(['client', 'chat', 'read', 'general']);

  t.section('Two-factor authentication (the demo plays the authenticator app)');
  const secret = secretFrom((await t.run(['client', '2fa', 'enable'])).stdout);
  await t.run(['client', '2fa', 'enable', '--code', await authenticatorCode(secret, ctx.now())]);
  await t.run(['client', 'logout']);
  await t.run(['client', 'init']);
  await t.run(['client', 'login', '--username', USER, '--password-stdin', '--code', await authenticatorCode(secret, ctx.now())], { input: PASSWORD, redirect: PASSWORD_FILE });
  await t.run(['client', 'whoami']);

  t.section('The session ends');
  await t.run(['client', 'logout']);
  t.say('\nThat is the whole story; its sandbox and profile are gone now. To try it yourself: kactl sandbox start, then the same commands. See kactl --help.');
}

export async function runDemo(ctx: Context, runKactl: RunKactl): Promise<void> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-demo-'));
  try {
    const { startSandbox } = await import('../../server/start.js');
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', rateLimit: false });
    try {
      await saveDemoProfile(configDir, sandbox.info);
      await tellStory(ctx, new Transcript(ctx, stepEnv(ctx, configDir), runKactl), sandbox.baseUrl);
    } finally {
      await sandbox.close();
    }
  } finally {
    fs.rmSync(configDir, { recursive: true, force: true });
  }
}
