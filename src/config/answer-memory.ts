/**
 * The signed answers a profile has accepted, kept for the client's replay check
 * (src/api/verify.ts `checkNotReplayed`): in the profile, so the check holds across commands
 * (each `kactl client …` is its own process), bounded to the most recent.
 */
import { ANSWER_MEMORY_SIZE, type AnswerMemory } from '../api/verify.js';
import { storageErrno } from '../io/storage-errors.js';
import type { ConfigStore } from './store.js';

export class ProfileAnswerMemory implements AnswerMemory {
  private unwritable = false;

  /**
   * `onUnwritable` hears once of a config folder that refuses the write (read-only, full): the
   * answer is still accepted, and the run goes on without remembering more.
   */
  constructor(
    private readonly store: ConfigStore,
    private readonly profile: string,
    private readonly onUnwritable: (error: unknown) => void = (error) => {
      throw error;
    },
  ) {}

  has(id: string): boolean {
    return this.store.profile(this.profile)?.seenAnswers?.includes(id) === true;
  }

  remember(id: string): void {
    if (this.unwritable) return;
    try {
      this.write(id);
    } catch (error) {
      if (storageErrno(error) === undefined) throw error;
      this.unwritable = true;
      this.onUnwritable(error);
    }
  }

  private write(id: string): void {
    this.store.update((config) => {
      // Made when missing, as the session is (the implicit profile of flag-only settings).
      const entry = config.profiles[this.profile] ?? {};
      const seen = (entry.seenAnswers ?? []).filter((known) => known !== id);
      seen.push(id);
      config.profiles[this.profile] = { ...entry, seenAnswers: seen.slice(-ANSWER_MEMORY_SIZE) };
    });
  }
}
