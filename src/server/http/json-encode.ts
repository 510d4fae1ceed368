/**
 * JSON as the sandbox writes it. Signatures cover the exact bytes, so these encoders are the
 * only way bodies are made.
 *  - 1.3: pure ASCII (non-ASCII as \uXXXX): the C# SDK verifies over ANSI-decoded text, so a
 *    raw non-ASCII byte would break its check (docs/protocol/client-api.md §2.5). `/` is left alone, as observed.
 *  - 1.2 and seller: PHP json_encode defaults, as the PHP servers: ASCII, and `/` written `\/`.
 */

/** JSON.stringify with every character above U+007F written as a lower-case `\uXXXX` escape. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * PHP's json_encode with default flags. `/` only ever appears inside strings in JSON text, so
 * escaping every one is exact. `escapeSlashes: false` is JSON_UNESCAPED_SLASHES.
 */
export function phpJson(value: unknown, options: { escapeSlashes?: boolean } = {}): string {
  const json = asciiJson(value);
  return options.escapeSlashes === false ? json : json.replace(/\//g, '\\/');
}
