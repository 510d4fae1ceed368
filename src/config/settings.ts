/**
 * Effective settings and where each came from: flag > environment > profile > default
 * (docs/contracts.md, "Configuration"). One table drives both the resolution and `profile show`.
 */
import type { EnvRecord, EnvVarName } from '../env.js';
import { readEnv } from '../env.js';
import type { ProfileData } from './types.js';
import { HOSTED_PUBLIC_KEY, isHostedUrl } from './hosted.js';
import { normaliseBaseUrl } from './base-url.js';
import { UsageError } from '../errors.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'unset';

export interface SettingsShape {
  baseUrl: string | undefined;
  appName: string | undefined;
  ownerid: string | undefined;
  appVersion: string;
  sellerKey: string | undefined;
  publicKey: string | undefined;
  secret: string | undefined;
  api: '1.3' | '1.2' | undefined;
  method: 'get' | 'post' | undefined;
  signatures: 'check' | 'skip';
  timeout: number;
  sellerRate: number;
  signatureWindow: number;
  hwid: string | undefined;
  caFile: string | undefined;
}
export type SettingKey = keyof SettingsShape;

/** Values given on the command line (global options), already parsed. */
export type SettingFlags = Partial<Pick<SettingsShape, 'baseUrl' | 'appName' | 'ownerid' | 'appVersion' | 'publicKey' | 'timeout' | 'hwid'>>;

interface SettingSpec<K extends SettingKey> {
  key: K;
  /** The global option that sets it, for `profile show`. */
  flag?: string;
  env?: EnvVarName;
  /** Shown masked by `profile show`. */
  secret?: boolean;
  description: string;
  /** Default, given the values resolved so far (the public key depends on the base URL). */
  fallback?: (resolved: Partial<SettingsShape>) => SettingsShape[K] | undefined;
  parseEnv?: (raw: string) => SettingsShape[K];
}

/** Typed builder: checks each entry against its key. */
function spec<K extends SettingKey>(s: SettingSpec<K>): SettingSpec<K> {
  return s;
}

export const DEFAULT_TIMEOUT_SECONDS = 15;
export const DEFAULT_SELLER_RATE = 120;
export const DEFAULT_SIGNATURE_WINDOW = 60;

/** KACTL_BASE_URL is checked as `--base-url` is; a bad one is a usage error naming the variable. */
function baseUrlFromEnv(raw: string): string {
  try {
    return normaliseBaseUrl(raw);
  } catch (error) {
    throw new UsageError(`KACTL_BASE_URL: ${(error as Error).message}`);
  }
}

/** KACTL_SELLER_RATE: a whole number of calls a minute, 0 turning pacing off. */
function sellerRateFromEnv(raw: string): number {
  if (!/^\d{1,6}$/.test(raw.trim())) throw new UsageError(`KACTL_SELLER_RATE: give a whole number of seller calls a minute (0: no pacing), not "${raw}".`);
  return Number(raw);
}

/** In resolution order: later entries may depend on earlier ones. */
export const SETTING_SPECS = [
  spec({ key: 'baseUrl', flag: '--base-url', env: 'KACTL_BASE_URL', description: 'server base URL', parseEnv: baseUrlFromEnv }),
  spec({ key: 'appName', flag: '--app-name', env: 'KACTL_APP_NAME', description: 'application name (client API)' }),
  spec({ key: 'ownerid', flag: '--ownerid', env: 'KACTL_OWNERID', description: 'application owner id (client API)' }),
  spec({ key: 'appVersion', flag: '--app-version', env: 'KACTL_APP_VERSION', description: 'version sent at init', fallback: () => '1.0' }),
  spec({ key: 'sellerKey', env: 'KACTL_SELLER_KEY', secret: true, description: 'seller API key' }),
  spec({
    key: 'publicKey',
    flag: '--public-key',
    env: 'KACTL_PUBLIC_KEY',
    description: 'Ed25519 key that signs 1.3 answers',
    fallback: (r) => (r.baseUrl && isHostedUrl(r.baseUrl) ? HOSTED_PUBLIC_KEY : undefined),
  }),
  spec({ key: 'secret', env: 'KACTL_APP_SECRET', secret: true, description: 'application secret (1.2 HMAC checks)' }),
  spec({ key: 'api', description: 'client API version (unset: 1.3, chat and user variables on 1.2)' }),
  spec({ key: 'method', description: 'how 1.3 calls are sent (unset: POST for a password, key, code or token, GET for the rest)' }),
  spec({ key: 'signatures', description: "whether answers' signatures are checked (skip: accepted unchecked, with a warning)", fallback: () => 'check' as const }),
  spec({ key: 'timeout', flag: '--timeout', description: 'request timeout in seconds', fallback: () => DEFAULT_TIMEOUT_SECONDS }),
  spec({ key: 'sellerRate', env: 'KACTL_SELLER_RATE', description: 'seller calls per minute (0: no pacing)', fallback: () => DEFAULT_SELLER_RATE, parseEnv: sellerRateFromEnv }),
  spec({ key: 'signatureWindow', description: 'largest accepted age of a signed answer, seconds', fallback: () => DEFAULT_SIGNATURE_WINDOW }),
  spec({ key: 'hwid', flag: '--hwid', description: 'HWID sent by client commands (default: this machine)' }),
  spec({
    key: 'caFile',
    env: 'KACTL_CA_FILE',
    description: "certificate authority trusted for HTTPS to the server named beside it (the profile's, or KACTL_BASE_URL's), instead of the system's (a --tls sandbox's)",
  }),
] as const;

/**
 * The settings given as global options: every setting with a flag, read from the parsed options
 * under the setting's own name (commander names `--base-url` `baseUrl`, as the setting is).
 */
export function settingFlagsFrom(options: Readonly<Record<string, unknown>>): SettingFlags {
  const flags: Record<string, unknown> = {};
  for (const s of SETTING_SPECS) {
    if ('flag' in s && options[s.key] !== undefined) flags[s.key] = options[s.key];
  }
  return flags;
}

export interface Resolved<T> {
  value: T;
  source: SettingSource;
}

export type ResolvedSettings = { [K in SettingKey]: Resolved<SettingsShape[K]> } & {
  /** The profile in use and where its name came from. */
  profile: Resolved<string | undefined>;
};

export interface ResolveInput {
  flags: SettingFlags;
  env: EnvRecord;
  profileName: Resolved<string | undefined>;
  profile: ProfileData | undefined;
}

export function resolveSettings(input: ResolveInput): ResolvedSettings {
  const values: Partial<SettingsShape> = {};
  const result: Record<string, Resolved<unknown>> = { profile: input.profileName };
  for (const s of SETTING_SPECS as readonly SettingSpec<SettingKey>[]) {
    const resolved = resolveOne(s, input, values);
    (values as Record<string, unknown>)[s.key] = resolved.value;
    result[s.key] = resolved;
  }
  return result as ResolvedSettings;
}

function resolveOne(s: SettingSpec<SettingKey>, input: ResolveInput, sofar: Partial<SettingsShape>): Resolved<unknown> {
  const fromFlag = input.flags[s.key as keyof SettingFlags];
  if (fromFlag !== undefined) return { value: fromFlag, source: 'flag' };
  const fromEnv = s.env ? readEnv(input.env, s.env) : undefined;
  if (fromEnv !== undefined) return { value: s.parseEnv ? s.parseEnv(fromEnv) : fromEnv, source: 'env' };
  const fromProfile = input.profile?.[s.key as keyof ProfileData];
  if (fromProfile !== undefined && fromProfile !== '') return { value: fromProfile, source: 'profile' };
  const fallback = s.fallback?.(sofar);
  if (fallback !== undefined) return { value: fallback, source: 'default' };
  return { value: undefined, source: 'unset' };
}

/** Which profile to use: `--profile` > `KACTL_PROFILE` > the active one. */
export function resolveProfileName(flag: string | undefined, env: EnvRecord, active: string | undefined): Resolved<string | undefined> {
  if (flag) return { value: flag, source: 'flag' };
  const fromEnv = readEnv(env, 'KACTL_PROFILE');
  if (fromEnv) return { value: fromEnv, source: 'env' };
  if (active) return { value: active, source: 'profile' };
  return { value: undefined, source: 'unset' };
}
