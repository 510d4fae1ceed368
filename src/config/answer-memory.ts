/**
 * The signed answers a profile has accepted, kept for the client's replay check
 * (src/api/verify.ts `checkNotReplayed`): a file per profile beside the profiles, in kactl's config
 * folder (`answers/<profile>.json`), so the check holds across commands (each `kactl client …` is
 * its own process), bounded to the most recent. With the profiles, so it goes where they go (a
 * `sandbox exec` run's own config folder, removed after it). The same file memory a program gets from
 * `fileAnswerMemory` (src/api/file-answer-memory.ts); apart from config.json, so remembering an
 * answer never rewrites the profiles.
 */
import path from 'node:path';
import { fileAnswerMemory } from '../api/file-answer-memory.js';
import type { AnswerMemory } from '../api/verify.js';

/** Where a profile's accepted answers are kept, under kactl's config folder. */
export function answerMemoryFile(configDir: string, profile: string): string {
  return path.join(configDir, 'answers', `${encodeURIComponent(profile)}.json`);
}

/**
 * The memory of one profile. `legacy` are the answers an older kactl kept in the profile itself
 * (`seenAnswers` in config.json): still refused, never written again. `onUnwritable` hears once
 * of a config folder that refuses the write (read-only, full): the answer is still accepted, and
 * the run goes on remembering in memory only.
 */
export function profileAnswerMemory(file: string, legacy: readonly string[] | undefined, onUnwritable: (error: unknown) => void): AnswerMemory {
  const memory = fileAnswerMemory(file, { onUnwritable });
  const older = new Set(legacy ?? []);
  return {
    has: (id) => older.has(id) || memory.has(id),
    remember: (id) => memory.remember(id),
  };
}
