/**
 * The public key in the forms the official C++ libraries hold it (src/commands/sandbox/cpp-public-key.ts),
 * checked against what the current library ships for the hosted key: its first row of each masked
 * array and its FNV-1a constant (keyauth-cpp-library-1.3API, auth.cpp, March 2026). The same
 * encoding of the hosted key giving the library's own values is what makes the sandbox key's
 * arrays right.
 */
import { describe, expect, it } from 'vitest';
import { HOSTED_PUBLIC_KEY } from '../../../src/config/hosted.js';
import { CPP_KEY_MASKS, currentLibraryKeyLines, fnv1a64, maskedKey, olderCopyKeyLine } from '../../../src/commands/sandbox/cpp-public-key.js';

describe('the C++ libraries\' key forms', () => {
  it('gives, for the hosted key, the arrays and integrity constant the current library ships', () => {
    const obf1 = maskedKey(HOSTED_PUBLIC_KEY, CPP_KEY_MASKS[0]);
    const obf2 = maskedKey(HOSTED_PUBLIC_KEY, CPP_KEY_MASKS[1]);
    expect(obf1).toHaveLength(64);
    expect(obf1.slice(0, 16)).toEqual([0x6f, 0x6f, 0x62, 0x6c, 0x38, 0x6e, 0x38, 0x39, 0x6c, 0x63, 0x39, 0x6d, 0x3b, 0x6e, 0x38, 0x6e]);
    expect(obf2.slice(0, 16)).toEqual([0x90, 0x90, 0x9d, 0x93, 0xc7, 0x91, 0xc7, 0xc6, 0x93, 0x9c, 0xc6, 0x92, 0xc4, 0x91, 0xc7, 0x91]);
    expect(fnv1a64(HOSTED_PUBLIC_KEY)).toBe(0x7553f24ca052d4b1n);
  });

  it('prints declarations a C++ compiler reads, which decode back to the key', () => {
    const key = 'ab'.repeat(32);
    const lines = currentLibraryKeyLines(key.toUpperCase());
    expect(lines[0]).toBe(`static constexpr uint64_t k_pubkey_fnv1a = 0x${fnv1a64(key).toString(16).padStart(16, '0')}ULL;`);
    const text = lines.join('\n');
    for (const [name, mask] of [['k_pubkey_obf1', 0x5a], ['k_pubkey_obf2', 0xa5]] as const) {
      const body = new RegExp(`static const uint8_t ${name}\\[64\\] = \\{([^}]*)\\};`).exec(text)![1]!;
      const bytes = body.split(',').map((byte) => Number.parseInt(byte.trim(), 16));
      expect(Buffer.from(bytes.map((byte) => byte ^ mask)).toString('ascii')).toBe(key);
    }
    expect(olderCopyKeyLine(key)).toBe(`std::string API_PUBLIC_KEY = "${key}";`);
  });
});
