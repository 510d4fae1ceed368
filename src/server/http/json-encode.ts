/**
 * JSON as the sandbox writes it. Signatures cover the exact bytes, so these encoders are the
 * only way bodies are made.
 *  - 1.3: pure ASCII (non-ASCII as \uXXXX): the C# SDK verifies over ANSI-decoded text, so a
 *    raw non-ASCII byte would break its check (docs/protocol/client-api.md §2.5). `/` is left alone, as observed.
 *  - 1.2 and seller: PHP json_encode defaults, as the PHP servers: ASCII, and `/` written `\/`.
 */

import { randomBytes } from 'node:crypto';

/**
 * JSON text encoded once and placed into answers as is (a cached list: see
 * seller/list-cache.ts), so a large answer is not built and escaped again on every request.
 * `ascii` is what `asciiJson` makes of the value.
 */
export class EncodedJson {
  #php: string | undefined;
  #asciiBytes: Buffer | undefined;
  #phpBytes: Buffer | undefined;
  /** The last whole answer made around this text alone (see `framed`). */
  #lastFrame: { readonly skeleton: string; readonly bytes: Buffer } | undefined;
  constructor(readonly ascii: string) {}

  /**
   * The bytes of an answer whose only spliced text is this one: `skeleton` (the answer's JSON
   * with this text's placeholder) identifies it. The last one is kept, because a polled list
   * is answered with the same envelope every time, and copying a large list into a new buffer
   * for each answer cost `fetchallkeys` a tenth of its time. The buffer is shared by answers,
   * which only ever write it.
   */
  framed(skeleton: string, make: () => Buffer): Buffer {
    if (this.#lastFrame?.skeleton !== skeleton) this.#lastFrame = { skeleton, bytes: make() };
    return this.#lastFrame.bytes;
  }

  /** As `phpJson` writes it: `/` escaped. */
  get php(): string {
    this.#php ??= this.ascii.replace(/\//g, '\\/');
    return this.#php;
  }

  /** The text's bytes (it is ASCII), `/` escaped or not. */
  bytes(escapeSlashes: boolean): Buffer {
    if (escapeSlashes) return (this.#phpBytes ??= Buffer.from(this.php, 'latin1'));
    return (this.#asciiBytes ??= Buffer.from(this.ascii, 'latin1'));
  }

  /** Stands in for the text while the rest of the answer is stringified. */
  toJSON(): string {
    spliced.push(this);
    return PLACEHOLDER;
  }
}

// Random per process, so no client-supplied string can be taken for it.
const PLACEHOLDER = `kactl-encoded-json-${randomBytes(12).toString('hex')}`;
const QUOTED_PLACEHOLDER = `"${PLACEHOLDER}"`;
let spliced: EncodedJson[] = [];

/** The escaped JSON text of `value`, with the EncodedJson values in it still as placeholders. */
function skeleton(value: unknown, escapeSlashes: boolean): { json: string; fragments: EncodedJson[] } {
  spliced = [];
  let json = JSON.stringify(value);
  // Most answers are plain ASCII: skip the escaping passes when nothing needs them.
  if (NON_ASCII.test(json)) json = json.replace(NON_ASCII_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escapeSlashes && json.includes('/')) json = json.replace(/\//g, '\\/');
  const fragments = spliced;
  spliced = [];
  return { json, fragments };
}

function encode(value: unknown, escapeSlashes: boolean): string {
  const { json, fragments } = skeleton(value, escapeSlashes);
  if (fragments.length === 0) return json;
  return json.split(QUOTED_PLACEHOLDER).reduce((joined, part, index) => {
    const fragment = fragments[index];
    return fragment === undefined ? joined + part : joined + part + (escapeSlashes ? fragment.php : fragment.ascii);
  }, '');
}

/**
 * `phpJson` (or `asciiJson` with `escapeSlashes: false`) as bytes. An EncodedJson's bytes are
 * copied in as they are, instead of being re-encoded as part of one long string.
 */
export function jsonBytes(value: unknown, escapeSlashes: boolean): Buffer {
  const { json, fragments } = skeleton(value, escapeSlashes);
  if (fragments.length === 0) return Buffer.from(json, 'utf8');
  const splice = (): Buffer => {
    const chunks: Buffer[] = [];
    json.split(QUOTED_PLACEHOLDER).forEach((part, index) => {
      chunks.push(Buffer.from(part, 'utf8'));
      const fragment = fragments[index];
      if (fragment !== undefined) chunks.push(fragment.bytes(escapeSlashes));
    });
    return Buffer.concat(chunks);
  };
  // The slash escaping is part of the skeleton's text only where the skeleton has a slash: the
  // mode is part of the key.
  const [only] = fragments;
  return fragments.length === 1 && only !== undefined ? only.framed(`${escapeSlashes ? 'php' : 'ascii'}\u0000${json}`, splice) : splice();
}

const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

/** JSON.stringify with every character above U+007F written as a lower-case `\uXXXX` escape. */
export function asciiJson(value: unknown): string {
  return encode(value, false);
}

/**
 * PHP's json_encode with default flags. `/` only ever appears inside strings in JSON text, so
 * escaping every one is exact. `escapeSlashes: false` is JSON_UNESCAPED_SLASHES.
 */
export function phpJson(value: unknown, options: { escapeSlashes?: boolean } = {}): string {
  return encode(value, options.escapeSlashes !== false);
}
