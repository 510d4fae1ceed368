/**
 * The Context's API clients: the client-API and seller-API callers, built from the settings, the
 * stored session, the transports and the wait display. A pacing state folder that cannot be
 * written is said once, and the rest of the run paces in memory.
 */
import type { ClientApi, ClientApiOptions } from '../api/client-api.js';
import type { SellerApi } from '../api/seller-api.js';
import type { Output } from '../io/output.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from './globals.js';
import type { Profiles } from './profiles.js';
import type { Transports } from './transports.js';
import { pacingNote, type Waits } from './waits.js';

export interface ApiClientDeps {
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly globals: () => GlobalOptions;
  readonly profiles: Profiles;
  readonly transports: Transports;
  readonly waits: Waits;
  readonly output: () => Output;
}

export interface SellerApiOptions {
  /** Replaces the default pacing line (a bulk job shows it beside its progress bar). */
  onWait?: (ms: number) => void | (() => void);
  /** Replaces Ctrl-C as what aborts the calls (on a transport of their own). */
  signal?: AbortSignal;
}

export class ApiClients {
  /** The pacing state folder could not be written: later seller callers pace in memory. */
  private pacingInMemory = false;

  constructor(private readonly deps: ApiClientDeps) {}

  /** Depends on: settings, transport, clientSession, output (warnings), clock, signal. */
  async clientApi(): Promise<ClientApi> {
    const { profiles, transports, waits } = this.deps;
    const settings = await profiles.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const appName = requireSetting(settings.appName.value, 'application name', '--app-name or KACTL_APP_NAME');
    const ownerid = requireSetting(settings.ownerid.value, 'application owner id', '--ownerid or KACTL_OWNERID');
    const { ClientApi } = await import('../api/client-api.js');
    const sessions = await profiles.clientSession();
    const { answerMemoryFile, profileAnswerMemory } = await import('../config/answer-memory.js');
    const { skippedWrite } = await import('../io/storage-errors.js');
    const answersFile = answerMemoryFile(profiles.configDir, sessions.profile);
    const legacyAnswers = (await profiles.config()).profile(sessions.profile)?.seenAnswers;
    return new ClientApi({
      baseUrl,
      appName,
      ownerid,
      appVersion: settings.appVersion.value,
      ...(settings.api.value ? { api: settings.api.value } : {}),
      ...(settings.method.value ? { method: settings.method.value } : {}),
      ...(settings.publicKey.value ? { publicKey: settings.publicKey.value } : {}),
      ...(settings.secret.value ? { secret: settings.secret.value } : {}),
      signatureWindowSec: settings.signatureWindow.value,
      ...verifying(this.deps.globals().verify, settings.signatures.value, settings.profile.value),
      ...(await waits.retryDisplay()),
      transport: await transports.transport(),
      warn: (line: string) => this.deps.output().warn(line),
      now: this.deps.now,
      signal: this.deps.signal,
      session: { load: () => sessions.load(), save: (session) => sessions.save(session) },
      answerMemory: profileAnswerMemory(answersFile, legacyAnswers, (error) => {
        this.deps.output().warn(skippedWrite(error, 'Signed answers are remembered for the replay check in this run only', answersFile, profiles));
      }),
    });
  }

  /** Depends on: settings, transport, dataDir (pacing state), output, clock, signal. */
  async sellerApi(options: SellerApiOptions = {}): Promise<SellerApi> {
    const { profiles, transports, waits } = this.deps;
    const settings = await profiles.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const sellerKey = requireSetting(settings.sellerKey.value, 'seller key', 'KACTL_SELLER_KEY or `kactl profile add … --seller-key-stdin`');
    const { SellerApi } = await import('../api/seller-api.js');
    const { skippedWrite } = await import('../io/storage-errors.js');
    const path = await import('node:path');
    return new SellerApi({
      baseUrl,
      sellerKey,
      ratePerMinute: settings.sellerRate.value,
      // A read-only or full data folder costs only the record other kactl processes share:
      // said once, and the rest of the run paces in memory.
      ...(this.pacingInMemory ? {} : { stateDir: path.join(profiles.dataDir, 'pacing') }),
      onPacingStateUnwritable: (error: unknown, stateDir: string) => {
        this.pacingInMemory = true;
        this.deps.output().warn(skippedWrite(error, 'The seller API budget is counted in memory for this run only', stateDir, profiles));
      },
      transport: options.signal === undefined ? await transports.transport() : await transports.own(options.signal),
      warn: (line: string) => this.deps.output().warn(line),
      onWait: options.onWait ?? ((ms: number) => waits.show(pacingNote(ms))),
      ...(await waits.retryDisplay()),
      now: this.deps.now,
      signal: options.signal ?? this.deps.signal,
    });
  }
}

/**
 * Whether answers are checked: not with `--no-verify`, nor on a profile saved with
 * `--signatures skip`; each says so once. While checking, a call kactl has no key for is refused
 * with the sentence below (src/api/client-api.ts, "requireKey").
 */
function verifying(flag: boolean, setting: 'check' | 'skip', profile: string | undefined): Pick<ClientApiOptions, 'verify' | 'noVerifyWarning' | 'missingKey'> {
  const name = profile ?? 'NAME';
  if (!flag) return { verify: false, noVerifyWarning: "Not checking the server's answer signatures (--no-verify)." };
  if (setting === 'skip') return { verify: false, noVerifyWarning: `Not checking the server's answer signatures (profile ${name} says --signatures skip).` };
  return {
    verify: true,
    missingKey: (api, type) => ({
      message:
        api === '1.3'
          ? "kactl has no public key to check the server's 1.3 answers with, so it sent nothing: give one with --public-key or KACTL_PUBLIC_KEY, or pass --no-verify to accept unchecked answers."
          : `kactl has no app secret to check the server's 1.2 answers with (${type} goes to API 1.2), so it sent nothing: give it with KACTL_APP_SECRET, or pass --no-verify to accept unchecked answers.`,
      hints: [
        api === '1.3' ? `To keep one in the profile: kactl profile add ${name} --public-key HEX` : `To keep it in the profile: kactl profile add ${name} --secret-stdin < secret.txt`,
        `A profile whose answers need no check (a server you run yourself): kactl profile add ${name} --signatures skip`,
      ],
    }),
  };
}

function requireSetting<T>(value: T | undefined, what: string, how: string): T {
  if (value === undefined || value === '') {
    throw new UsageError(`No ${what} is configured; set ${how}, or choose a profile with --profile.`, {
      hints: ['Start a local sandbox (it saves a profile named "sandbox"): kactl sandbox start'],
    });
  }
  return value;
}
