/**
 * A test rig for client commands run in-process: the real sandbox on 127.0.0.1 (every built-in
 * handler, plus any a test scripts to force an answer), a temporary config folder whose active
 * profile points at it, and a record of every client call the sandbox received (type, API
 * version, method, parameters as sent).
 */
import { ConfigStore } from '../../../src/config/store.js';
import type { ProfileData, StoredSession } from '../../../src/config/types.js';
import { clientHandlers } from '../../../src/server/client/index.js';
import type { Handler, HandlerTable } from '../../../src/server/dispatch/types.js';
import { runMain, type RunMainOptions, type RunResult } from '../../helpers/run-main.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp-dir.js';

export const RIG_PROFILE = 'rig';
export const RIG_HWID = 'rig-hwid-0000-0000-0000-0001';

export interface RecordedCall {
  type: string;
  api: string;
  method: string;
  params: Record<string, string>;
}

export interface ClientRig {
  sb: TestSandbox;
  configDir: string;
  calls: RecordedCall[];
  /** `kactl …` in-process against the rig's profile. */
  run(argv: readonly string[], options?: RunMainOptions): Promise<RunResult>;
  /** The session stored in the rig's profile. */
  session(): StoredSession | undefined;
  /** Calls of one type, in order. */
  callsOf(type: string): RecordedCall[];
  /** Unused license keys made through the seller API. */
  keys(amount: number): Promise<string[]>;
}

export interface RigOptions {
  /** Handlers that replace or add to the sandbox's own. */
  handlers?: HandlerTable;
  /** Extra profile fields (`api`, `hwid`, ...). `hwid: undefined` drops the rig's HWID. */
  profile?: Partial<ProfileData>;
}

export async function clientRig(options: RigOptions = {}): Promise<ClientRig> {
  const calls: RecordedCall[] = [];
  const recorded = (type: string, handler: Handler): Handler => (ctx, params) => {
    calls.push({ type, api: ctx.api, method: ctx.request.method, params: Object.fromEntries(params.names().map((n) => [n, params.raw(n) ?? ''])) });
    return handler(ctx, params);
  };
  const table = { ...clientHandlers, ...options.handlers };
  const sb = await startTestSandbox({ handlers: { client: Object.fromEntries(Object.entries(table).map(([type, h]) => [type, recorded(type, h)])) } });
  const configDir = tempDir('kactl-client-rig-');
  const store = new ConfigStore(configDir);
  const profile: ProfileData = {
    baseUrl: sb.baseUrl,
    appName: sb.info.app.name,
    ownerid: sb.info.app.ownerid,
    appVersion: sb.info.app.version,
    sellerKey: sb.info.sellerKey,
    publicKey: sb.info.publicKey,
    secret: sb.info.app.secret,
    adminToken: sb.info.adminToken,
    sellerRate: 0,
    hwid: RIG_HWID,
    ...options.profile,
  };
  store.update((config) => {
    config.profiles[RIG_PROFILE] = Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined));
    config.active = RIG_PROFILE;
  });
  return {
    sb,
    configDir,
    calls,
    run: (argv, runOptions = {}) => runMain(argv, { ...runOptions, env: { KACTL_CONFIG_DIR: configDir, ...runOptions.env } }),
    session: () => store.profile(RIG_PROFILE)?.session,
    callsOf: (type) => calls.filter((c) => c.type === type),
    async keys(amount) {
      const res = await sb.seller('add', { expiry: '30', amount: String(amount), level: '1', format: 'JSON' });
      const keys: unknown = res.json?.keys ?? (res.json?.key === undefined ? undefined : [res.json.key]);
      if (!Array.isArray(keys) || keys.length !== amount) throw new Error(`seller add answered ${res.status}: ${res.text}`);
      return keys as string[];
    },
  };
}

/** Registers `username` with a fresh key and leaves the session logged in. */
export async function registered(rig: ClientRig, username = 'alice', extra: string[] = []): Promise<void> {
  const [key] = await rig.keys(1);
  const init = await rig.run(['client', 'init', '--new']);
  if (init.code !== 0) throw new Error(`init exited ${init.code}: ${init.stderr}`);
  const reg = await rig.run(['client', 'register', '--username', username, '--key', key!, '--password', 'pw-123456', ...extra]);
  if (reg.code !== 0) throw new Error(`register exited ${reg.code}: ${reg.stderr}`);
}
