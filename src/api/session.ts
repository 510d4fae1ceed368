/**
 * A client session as the client-API caller keeps it between calls (docs/design.md, "Sessions"):
 * what `init` opened, and what a login validated. The CLI persists it in the profile
 * (src/config/client-session.ts); a program keeps it wherever its SessionStore says, in memory
 * by default.
 */

/** A client session kept between calls, so `init` then `login` then `var` work in turn. */
export interface StoredSession {
  id: string;
  /** The 16-character key sent at init; 1.2 answers after init are HMAC'd with `<enckey>-<secret>`. */
  enckey?: string;
  /** Unix ms when init answered. */
  createdAt: number;
  /** Which API version opened it. */
  api?: string;
  /** Set once a login, license, register, email code or magic link validated the session. */
  user?: string;
  validated?: boolean;
  /** `<baseUrl>|<appName>|<ownerid>`: a session belongs to one server and app, never reused for another. */
  origin?: string;
}

/** Where the session is kept (the profile, in the CLI; a variable, by default). */
export interface SessionStore {
  load(): StoredSession | undefined;
  /** `undefined` clears it. */
  save(session: StoredSession | undefined): void;
}

/** A SessionStore in memory: the session lives as long as the client. */
export function memorySessionStore(initial?: StoredSession): SessionStore {
  let current = initial;
  return {
    load: () => current,
    save: (session) => {
      current = session;
    },
  };
}
