/**
 * The Context's transports: one keep-alive transport per process, others for jobs that stop on a
 * signal of their own, all closed together; each trusts the authority its server's profile names,
 * and learns how far a sandbox's domain clock runs from ours.
 */
import { readEnv, type EnvRecord } from '../env.js';
import type { ResolvedSettings } from '../config/settings.js';
import type { Transport } from '../api/transport.js';
import { UsageError } from '../errors.js';
import type { Profiles } from './profiles.js';

export interface TransportDeps {
  readonly env: EnvRecord;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly profiles: Profiles;
  /** `--verbose` lines, when asked for. */
  readonly verbose: (() => ((line: string) => void) | undefined);
}

export class Transports {
  private shared: Transport | undefined;
  private readonly others: Transport[] = [];
  /** How far a sandbox's domain clock runs from ours (ms), once one has answered. */
  private serverClockOffsetMs = 0;

  constructor(private readonly deps: TransportDeps) {}

  /**
   * The server's "now" in ms: a sandbox's domain clock (it reports it on every answer; see
   * `kactl sandbox advance`) once one has answered in this run, else `now()`.
   */
  serverNow(): number {
    return this.deps.now() + this.serverClockOffsetMs;
  }

  /** One transport (one keep-alive agent) per process. Depends on: settings (timeout), signal, `--verbose`. */
  async transport(): Promise<Transport> {
    this.shared ??= await this.create(this.deps.signal);
    return this.shared;
  }

  /** A transport aborted by `signal` instead of Ctrl-C, closed with the others. */
  async own(signal: AbortSignal): Promise<Transport> {
    const transport = await this.create(signal);
    this.others.push(transport);
    return transport;
  }

  /** Release what the run opened (keep-alive sockets would otherwise hold the process). */
  async close(): Promise<void> {
    const open = [this.shared, ...this.others.splice(0)].filter((t): t is Transport => t !== undefined);
    await Promise.all(open.map((t) => t.close()));
    this.shared = undefined;
  }

  private async create(signal: AbortSignal): Promise<Transport> {
    const { Transport } = await import('../api/transport.js');
    const settings = await this.deps.profiles.settings();
    const ca = await this.trustedAuthority(settings);
    const verbose = this.deps.verbose();
    return new Transport({
      timeoutMs: settings.timeout.value * 1000,
      ...(ca === undefined ? {} : { ca }),
      signal,
      onSandboxNow: (seconds: number) => {
        this.serverClockOffsetMs = seconds * 1000 - this.deps.now();
      },
      ...(verbose ? { verbose } : {}),
    });
  }

  /**
   * The certificate authority (PEM) to trust instead of the system's, for the server named beside
   * it only: `KACTL_CA_FILE` for the server `KACTL_BASE_URL` names, a profile's `caFile` for the
   * profile's own base URL. A `--base-url` elsewhere keeps the system's roots.
   */
  private async trustedAuthority(settings: ResolvedSettings): Promise<string | undefined> {
    if (settings.caFile.value === undefined) return undefined;
    const inUse = settings.baseUrl.value;
    const fromEnv = readEnv(this.deps.env, 'KACTL_CA_FILE');
    let chosen: { file: string; owner: string; hint: string } | undefined;
    if (fromEnv !== undefined && inUse !== undefined && (await envBaseUrl(this.deps.env)) === inUse) {
      chosen = { file: fromEnv, owner: 'KACTL_CA_FILE', hint: 'Point KACTL_CA_FILE at the sandbox\'s authority (kactl sandbox ca --path), or unset it.' };
    } else {
      const profile = await this.deps.profiles.currentProfile();
      if (profile?.caFile !== undefined && profile.caFile !== '' && profile.baseUrl === inUse) {
        chosen = { file: profile.caFile, owner: `profile "${settings.profile.value ?? '?'}"`, hint: 'Start its sandbox again (kactl sandbox start --tls) to save it anew, or remove the profile.' };
      }
    }
    if (chosen === undefined) return undefined;
    const fs = await import('node:fs');
    try {
      return fs.readFileSync(chosen.file, 'utf8');
    } catch (error) {
      throw new UsageError(`The certificate authority of ${chosen.owner} (${chosen.file}) cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, {
        hints: [chosen.hint],
      });
    }
  }
}

/** KACTL_BASE_URL as the settings read it (normalised); undefined when unset or not a URL. */
async function envBaseUrl(env: EnvRecord): Promise<string | undefined> {
  const raw = readEnv(env, 'KACTL_BASE_URL');
  if (raw === undefined) return undefined;
  const { normaliseBaseUrl } = await import('../config/base-url.js');
  try {
    return normaliseBaseUrl(raw);
  } catch {
    return undefined;
  }
}
