/**
 * The client's replay check (src/api/verify.ts `checkNotReplayed`, src/config/answer-memory.ts):
 * an answer with a nonce whose signature was accepted before is refused; failures without a
 * nonce are never remembered; the profile keeps only the newest signatures.
 */
import { describe, expect, it } from 'vitest';
import { ProfileAnswerMemory } from '../../../src/config/answer-memory.js';
import { ConfigStore } from '../../../src/config/store.js';
import { ExitCode, exitCodeOf, SignatureError } from '../../../src/errors.js';
import { ANSWER_MEMORY_SIZE, checkNotReplayed } from '../../../src/api/verify.js';
import { tempDir } from '../../helpers/temp-dir.js';

const signature = (n: number): string => n.toString(16).padEnd(128, '0');

describe('checkNotReplayed', () => {
  it('refuses the second answer with the same signature, with exit 5', () => {
    const memory = new ProfileAnswerMemory(new ConfigStore(tempDir('kactl-replay-')), 'p');
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
    const memory = new ProfileAnswerMemory(new ConfigStore(tempDir('kactl-replay-')), 'p');
    for (let i = 0; i < 3; i++) checkNotReplayed(memory, signature(2), { success: false, message: 'Password does not match.' });
    // Not a signature (1.2 without an enckey): nothing to remember.
    checkNotReplayed(memory, 'No encryption key supplied', { success: true, nonce: 'x' });
    checkNotReplayed(memory, 'No encryption key supplied', { success: true, nonce: 'x' });
  });

  it('keeps the newest signatures only, in the profile (so the check holds across commands)', () => {
    const dir = tempDir('kactl-replay-');
    const memory = new ProfileAnswerMemory(new ConfigStore(dir), 'p');
    for (let i = 0; i <= ANSWER_MEMORY_SIZE; i++) checkNotReplayed(memory, signature(1000 + i), { success: true, nonce: String(i) });
    const seen = new ConfigStore(dir).profile('p')?.seenAnswers ?? [];
    expect(seen).toHaveLength(ANSWER_MEMORY_SIZE);
    // A second process (a fresh store on the same folder) knows the newest…
    const later = new ProfileAnswerMemory(new ConfigStore(dir), 'p');
    expect(() => checkNotReplayed(later, signature(1000 + ANSWER_MEMORY_SIZE), { success: true, nonce: 'n' })).toThrow(SignatureError);
    // …and has forgotten the oldest.
    expect(() => checkNotReplayed(later, signature(1000), { success: true, nonce: '0' })).not.toThrow();
  });

  it('a config folder that refuses the write is said once, and the answer still accepted', () => {
    const refused = Object.assign(new Error('read-only'), { code: 'EROFS' });
    const store = { profile: () => undefined, update: () => { throw refused; } } as unknown as ConfigStore;
    const heard: unknown[] = [];
    const memory = new ProfileAnswerMemory(store, 'p', (error) => heard.push(error));
    checkNotReplayed(memory, signature(7), { success: true, nonce: 'a' });
    checkNotReplayed(memory, signature(8), { success: true, nonce: 'b' });
    expect(heard).toEqual([refused]);
  });
});
