/**
 * The public key as the official C++ libraries hold it. The example's older copy
 * (`x86/lib/auth.cpp`) keeps the hex string `API_PUBLIC_KEY`. The current library
 * (keyauth-cpp-library-1.3API, which the x64 build links) keeps the same 64 hex characters as two
 * byte arrays, each character XOR-masked (`k_pubkey_obf1` with 0x5A, `k_pubkey_obf2` with
 * 0xA5), decodes both and refuses the key when they differ; some of its releases also compare
 * the FNV-1a 64-bit hash of the characters with `k_pubkey_fnv1a`. All three are computed here,
 * so nobody masks a key by hand (docs/testing-your-program.md, "C++").
 */

/** The masks of `k_pubkey_obf1` and `k_pubkey_obf2`. */
export const CPP_KEY_MASKS = [0x5a, 0xa5] as const;

/** The key's characters (lower-case hex, as the libraries decode it) masked with `mask`. */
export function maskedKey(publicKeyHex: string, mask: number): number[] {
  return [...Buffer.from(publicKeyHex.toLowerCase(), 'ascii')].map((byte) => byte ^ mask);
}

/** FNV-1a, 64 bits, over the key's characters: the library's integrity constant. */
export function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'ascii')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}

const hexByte = (byte: number): string => `0x${byte.toString(16).padStart(2, '0')}`;

/** One array as the library declares it, 16 bytes a line. */
function arrayLines(name: string, bytes: readonly number[]): string[] {
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) rows.push(`    ${bytes.slice(i, i + 16).map(hexByte).join(', ')}${i + 16 < bytes.length ? ',' : ''}`);
  return [`static const uint8_t ${name}[${bytes.length}] = {`, ...rows, '};'];
}

/** The declarations of the current library's `auth.cpp` that hold the key, for this key. */
export function currentLibraryKeyLines(publicKeyHex: string): string[] {
  const key = publicKeyHex.toLowerCase();
  return [
    `static constexpr uint64_t k_pubkey_fnv1a = 0x${fnv1a64(key).toString(16).padStart(16, '0')}ULL;`,
    ...arrayLines('k_pubkey_obf1', maskedKey(key, CPP_KEY_MASKS[0])),
    ...arrayLines('k_pubkey_obf2', maskedKey(key, CPP_KEY_MASKS[1])),
  ];
}

/** The older copy's line. */
export function olderCopyKeyLine(publicKeyHex: string): string {
  return `std::string API_PUBLIC_KEY = "${publicKeyHex.toLowerCase()}";`;
}
