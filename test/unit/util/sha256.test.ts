/** src/util/sha256.ts gives node:crypto's SHA-256, at every length around the block boundaries. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/util/sha256.js';

describe('sha256Hex', () => {
  it('is the FIPS 180-4 digest of the standard examples', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('equals node:crypto for every length from 0 to 300 bytes, and for text beyond ASCII', () => {
    for (let length = 0; length <= 300; length += 1) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
      expect(sha256Hex(text), `length ${length}`).toBe(createHash('sha256').update(text).digest('hex'));
    }
    const text = 'clé-ключ-鍵-🔑';
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});
