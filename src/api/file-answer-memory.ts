/**
 * An AnswerMemory kept in a file (src/api/verify.ts, the replay check): the start of the
 * signature of each of the last `size` accepted answers, so the check holds across restarts of
 * a program and across processes sharing the file. The CLI keeps one per profile
 * (src/config/answer-memory.ts); a program passes one to createClient as `answerMemory`.
 *
 * The file is JSON, `{"version":1,"answers":[…]}`, newest last, mode 0600 in a folder made 0700.
 * Each remembered answer is a read-modify-write under a lock beside the file
 * (src/util/file-lock.ts), written atomically (src/util/atomic-file.ts), so processes sharing it
 * never lose each other's entries. Reads are cached while the file stays the one read (inode,
 * size, modification time). A file that is not such JSON counts as empty and is replaced at the
 * next write: what it held is lost, as an in-memory memory's is at a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-file.js';
import { withFileLockSync } from '../util/file-lock.js';
import { makeDir } from '../util/make-dir.js';
import { ANSWER_MEMORY_SIZE, type AnswerMemory } from './verify.js';

export interface FileAnswerMemoryOptions {
  /** How many answers are kept (default 128, far more than a minute of calls). */
  readonly size?: number;
  /**
   * Told once when the file cannot be written (a read-only or full folder): the answer is still
   * accepted, and this memory goes on remembering in memory only. Default: the file system's
   * error is thrown from the call that accepted the answer.
   */
  readonly onUnwritable?: (error: unknown) => void;
}

interface AnswersFile {
  version: 1;
  answers: string[];
}

const ID = /^[0-9a-f]{1,128}$/;

/** A memory of accepted answers kept in `file` (made, with its folder, at the first answer). */
export function fileAnswerMemory(file: string, options: FileAnswerMemoryOptions = {}): AnswerMemory {
  return new FileAnswerMemory(path.resolve(file), options);
}

class FileAnswerMemory implements AnswerMemory {
  private readonly size: number;
  /** The file as last read, and which version of it that was. */
  private cached: { version: string; answers: ReadonlySet<string> } | undefined;
  /** Remembered by this object: still refused when the file could not be written. */
  private readonly ownAnswers = new Set<string>();
  private unwritable = false;

  constructor(
    private readonly file: string,
    private readonly options: FileAnswerMemoryOptions,
  ) {
    this.size = Math.max(1, Math.floor(options.size ?? ANSWER_MEMORY_SIZE));
  }

  has(id: string): boolean {
    return this.ownAnswers.has(id) || this.stored().has(id);
  }

  remember(id: string): void {
    this.ownAnswers.add(id);
    if (this.unwritable) return;
    try {
      makeDir(path.dirname(this.file));
      withFileLockSync(`${this.file}.lock`, () => {
        const answers = [...readAnswers(this.file)].filter((known) => known !== id);
        answers.push(id);
        const file: AnswersFile = { version: 1, answers: answers.slice(-this.size) };
        writeFileAtomicSync(this.file, JSON.stringify(file));
      });
    } catch (error) {
      const { code, syscall } = error as NodeJS.ErrnoException;
      // Only the file system's refusals; a lock held too long by another process is still an error.
      if (typeof code !== 'string' || typeof syscall !== 'string') throw error;
      this.unwritable = true;
      (this.options.onUnwritable ?? rethrow)(error);
    }
  }

  private stored(): ReadonlySet<string> {
    let version = '';
    try {
      const stat = fs.statSync(this.file);
      version = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      if (!missing(error)) throw error;
    }
    if (this.cached?.version !== version) this.cached = { version, answers: new Set(readAnswers(this.file)) };
    return this.cached.answers;
  }
}

/** No file there: none yet, or a file where a folder on the way should be (nothing can be stored there). */
function missing(error: unknown): boolean {
  const { code } = error as NodeJS.ErrnoException;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function rethrow(error: unknown): never {
  throw error;
}

/** The answers the file holds, oldest first: none when it is missing or not ours. */
function readAnswers(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (missing(error)) return [];
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<AnswersFile>;
    return Array.isArray(parsed.answers) ? parsed.answers.filter((id): id is string => typeof id === 'string' && ID.test(id)) : [];
  } catch {
    return [];
  }
}
