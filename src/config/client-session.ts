/**
 * The client session a profile keeps between commands, and its one rule: a stored session
 * belongs to one server, app and owner id (its `origin`). Only a command configured for the same
 * three sees it; one configured for another server or app neither reuses nor clears it.
 * The protocol library loads and saves the id through `load`/`save`; the client commands read
 * it and add who logged in.
 */
import type { ConfigStore } from './store.js';
import type { StoredSession } from './types.js';

/** The tag a stored session carries. */
export function sessionOrigin(baseUrl: string, appName: string, ownerid: string): string {
  return `${baseUrl}|${appName}|${ownerid}`;
}

export interface SessionView {
  /** The profile sessions are kept in. */
  profile: string;
  /** The session for the configured server and app, if one is stored. */
  session: StoredSession | undefined;
  /** A session is stored, but for another server or app (the settings changed since). */
  elsewhere: boolean;
}

export class ClientSessionStore {
  /**
   * `origin` is undefined when the server, app or owner id is not configured: then no stored
   * session is this one.
   */
  constructor(
    private readonly store: ConfigStore,
    readonly profile: string,
    readonly origin: string | undefined,
  ) {}

  private stored(): StoredSession | undefined {
    return this.store.profile(this.profile)?.session;
  }

  /** The session of this server and app, if one is stored. */
  load(): StoredSession | undefined {
    const session = this.stored();
    return this.origin !== undefined && session?.origin === this.origin ? session : undefined;
  }

  /** Stores `session` tagged with this origin, or removes the stored one (`undefined`). */
  save(session: StoredSession | undefined): void {
    this.store.updateProfile(this.profile, { session: session ? { ...session, origin: this.origin } : undefined });
  }

  read(): SessionView {
    const stored = this.stored();
    if (stored === undefined) return { profile: this.profile, session: undefined, elsewhere: false };
    const session = this.load();
    return { profile: this.profile, session, elsewhere: session === undefined };
  }

  /** Adds `fields` to the stored session of this server and app (if it is still there). */
  update(fields: Partial<StoredSession>): void {
    this.store.update((config) => {
      const session = config.profiles[this.profile]?.session;
      if (session === undefined || session.origin !== this.origin) return;
      config.profiles[this.profile] = { ...config.profiles[this.profile], session: { ...session, ...fields } };
    });
  }

  /** Forgets the stored session of this server and app (after logout, or a rename that ended it). */
  forget(): void {
    this.store.update((config) => {
      const entry = config.profiles[this.profile];
      const session = entry?.session;
      // A session of another server or app is not the one that just ended.
      if (entry === undefined || session === undefined || session.origin !== this.origin) return;
      const { session: _ended, ...rest } = entry;
      config.profiles[this.profile] = rest;
    });
  }
}
