/**
 * Strict `application/x-www-form-urlencoded` decoding (bodies and query strings). Unlike
 * URLSearchParams, which silently keeps a broken `%zz`, this refuses malformed percent-escapes
 * and escapes that decode to invalid UTF-8, so the client hears about it (HTTP 400).
 */
import { InputError, MESSAGES } from './input-error.js';

/** The `name=value` pairs of `text`, in order (duplicates kept; the caller decides). */
export function decodeForm(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const value = eq < 0 ? '' : piece.slice(eq + 1);
    pairs.push([decodeComponent(name), decodeComponent(value)]);
  }
  return pairs;
}

function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  // Nothing to decode (most names and values): decodeURIComponent would return it unchanged.
  if (!spaced.includes('%')) return spaced;
  if (/%(?![0-9A-Fa-f]{2})/.test(spaced)) throw new InputError(400, MESSAGES.malformedEncoding);
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new InputError(400, MESSAGES.invalidUtf8);
  }
}

/** How many times `name=` appears in a raw query string (the seller API refuses two `type`s). */
export function countRawParam(rawQuery: string, name: string): number {
  return rawQuery.split('&').filter((piece) => piece === name || piece.startsWith(`${name}=`)).length;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes bytes as UTF-8, refusing invalid sequences. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InputError(400, MESSAGES.invalidUtf8);
  }
}
