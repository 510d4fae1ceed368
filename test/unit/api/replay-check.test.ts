/**
 * The client's replay check (src/api/verify.ts `checkNotReplayed`) and the file memory behind it
 * (src/api/file-answer-memory.ts, the CLI's per profile in src/config/answer-memory.ts): an
 * answer with a nonce whose signature was accepted before is refused; failures without a nonce
 * are never remembered; the file keeps only the newest signatures, across restarts and processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileAnswerMemory } from '../../../src/api/file-answer-memory.js';
import { answerMemoryFile, profileAnswerMemory } from '../../../src/config/answer-memory.js';
import { ExitCode, exitCodeOf, SignatureError } from '../../../src/errors.js';
import { ANSWER_MEMORY_SIZE, checkNotReplayed } from '../../../src/api/verify.js';
import { tempDir } from '../../helpers/temp-dir.js';

const signature = (n: number): string => n.toString(16).padEnd(128, '0');
const answersIn = (file: string): string[] => (JSON.parse(fs.readFileSync(file, 'utf8')) as { answers: string[] }).answers;

describe('checkNotReplayed', () => {
  it('refuses the second answer with the same signature, with exit 5', () => {
    const memory = fileAnswerMemory(path.join(tempDir('kactl-replay-'), 'answers.json'));
    checkNotReplayed(memory, signature(1), { success: true, nonce: 'a' });
    const again = (): void => checkNotReplayed(memory, signature(1), { success: true, nonce: 'a' });
    expect(again).toThrow(SignatureError);
    expect(again).toThrow('The answer is a replay: an answer with this exact signature was accepted before.');
    try {
      again();
    } catch (error) {
      expect(exitCodeOf(error as SignatureError)).toBe(ExitCode.signature);
      expect((error as SignatureError).reason).toBe('replay');
    }
  });

  it('lets equal answers without a nonce through (two genuine equal failures are byte-identical)', () => {
    const file = path.join(tempDir('kactl-replay-'), 'answers.json');
    const memory = fileAnswerMemory(file);
    for (let i = 0; i < 3; i++) checkNotReplayed(memory, signature(2), { success: false, message: 'Password does not match.' });
    // Not a signature (1.2 without an enckey): nothing to remember.
    checkNotReplayed(memory, 'No encryption key supplied', { success: true, nonce: 'x' });
    checkNotReplayed(memory, 'No encryption key supplied', { success: true, nonce: 'x' });
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('fileAnswerMemory', () => {
  it('keeps the newest signatures only, in its file, which a restarted program reads (0600, folder made 0700)', () => {
    const dir = path.join(tempDir('kactl-replay-'), 'made');
    const file = path.join(dir, 'answers.json');
    const memory = fileAnswerMemory(file);
    for (let i = 0; i <= ANSWER_MEMORY_SIZE; i++) checkNotReplayed(memory, signature(1000 + i), { success: true, nonce: String(i) });
    expect(answersIn(file)).toHaveLength(ANSWER_MEMORY_SIZE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    // A restarted program (a fresh memory on the same file) knows the newest…
    const later = fileAnswerMemory(file);
    expect(() => checkNotReplayed(later, signature(1000 + ANSWER_MEMORY_SIZE), { success: true, nonce: 'n' })).toThrow(SignatureError);
    // …and has forgotten the oldest.
    expect(() => checkNotReplayed(later, signature(1000), { success: true, nonce: '0' })).not.toThrow();
  });

  it('two memories sharing a file (two processes) see and keep each other\'s answers', () => {
    const file = path.join(tempDir('kactl-replay-'), 'answers.json');
    const first = fileAnswerMemory(file);
    const second = fileAnswerMemory(file);
    checkNotReplayed(first, signature(1), { success: true, nonce: 'a' });
    checkNotReplayed(second, signature(2), { success: true, nonce: 'b' });
    expect(() => checkNotReplayed(first, signature(2), { success: true, nonce: 'b' })).toThrow(SignatureError);
    expect(() => checkNotReplayed(second, signature(1), { success: true, nonce: 'a' })).toThrow(SignatureError);
    expect(answersIn(file)).toHaveLength(2);
  });

  it('a damaged file counts as empty and is replaced at the next answer', () => {
    const file = path.join(tempDir('kactl-replay-'), 'answers.json');
    fs.writeFileSync(file, '{"version":1,"answ');
    const memory = fileAnswerMemory(file);
    checkNotReplayed(memory, signature(3), { success: true, nonce: 'a' });
    expect(answersIn(file)).toEqual([signature(3).slice(0, 32)]);
  });

  it('a folder that refuses the write is said once; the answers are still accepted, and still refused in this run', () => {
    const dir = tempDir('kactl-replay-');
    // A file where the folder should be: the write fails with the file system's own refusal.
    fs.writeFileSync(path.join(dir, 'blocked'), '');
    const heard: unknown[] = [];
    const memory = fileAnswerMemory(path.join(dir, 'blocked', 'answers.json'), { onUnwritable: (error) => heard.push(error) });
    checkNotReplayed(memory, signature(7), { success: true, nonce: 'a' });
    checkNotReplayed(memory, signature(8), { success: true, nonce: 'b' });
    expect(heard).toHaveLength(1);
    expect((heard[0] as NodeJS.ErrnoException).syscall).toBe('mkdir');
    expect(() => checkNotReplayed(memory, signature(7), { success: true, nonce: 'a' })).toThrow(SignatureError);
  });

  it('without onUnwritable, the refusal is thrown from the call that accepted the answer', () => {
    const dir = tempDir('kactl-replay-');
    fs.writeFileSync(path.join(dir, 'blocked'), '');
    const memory = fileAnswerMemory(path.join(dir, 'blocked', 'answers.json'));
    expect(() => checkNotReplayed(memory, signature(9), { success: true, nonce: 'a' })).toThrow(expect.objectContaining({ syscall: 'mkdir' }));
  });
});

describe('the CLI\'s memory of a profile', () => {
  it('is a file of its own per profile beside config.json', () => {
    expect(answerMemoryFile('/config', 'sandbox')).toBe(path.join('/config', 'answers', 'sandbox.json'));
    // A name is a file name, whatever it holds.
    expect(path.basename(answerMemoryFile('/config', 'a/../b'))).toBe('a%2F..%2Fb.json');
  });

  it('still refuses the answers an older kactl kept in the profile (seenAnswers)', () => {
    const file = answerMemoryFile(tempDir('kactl-replay-'), 'p');
    const memory = profileAnswerMemory(file, [signature(5).slice(0, 32)], () => undefined);
    expect(() => checkNotReplayed(memory, signature(5), { success: true, nonce: 'a' })).toThrow(SignatureError);
    checkNotReplayed(memory, signature(6), { success: true, nonce: 'b' });
    expect(answersIn(file)).toEqual([signature(6).slice(0, 32)]);
  });
});
