/**
 * `multipart/form-data` decoding (RFC 7578), for the programs that post their fields that way
 * (the official PHP example does). Only text fields become parameters: a part with a `filename`
 * is an uploaded file, which no API operation reads (PHP likewise keeps those out of `$_POST`).
 * Anything malformed is refused with a 400 rather than half-read.
 */
import { decodeUtf8 } from './form-decode.js';
import { InputError, MESSAGES } from './input-error.js';

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart content type, or undefined when missing or invalid. */
export function multipartBoundary(contentType: string): string | undefined {
  for (const piece of contentType.split(';').slice(1)) {
    const eq = piece.indexOf('=');
    if (eq < 0 || piece.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    const value = piece.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    // RFC 2046: 1–70 characters, not ending in a space.
    return value.length >= 1 && value.length <= 70 && !value.endsWith(' ') ? value : undefined;
  }
  return undefined;
}

/** The text fields of a multipart body, in order (duplicates kept, as for a urlencoded form). */
export function decodeMultipart(body: Buffer, boundary: string): [string, string][] {
  const delimiter = Buffer.from(`--${boundary}`);
  const malformed = (): never => {
    throw new InputError(400, MESSAGES.malformedMultipart);
  };
  let at = body.indexOf(delimiter);
  if (at < 0) malformed();
  const fields: [string, string][] = [];
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return fields;
    if (!body.subarray(at, at + 2).equals(CRLF)) malformed();
    at += 2;
    const headerEnd = body.indexOf(HEADER_END, at);
    if (headerEnd < 0) malformed();
    const headers = body.subarray(at, headerEnd).toString('latin1');
    const contentStart = headerEnd + HEADER_END.length;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), contentStart);
    if (next < 0) malformed();
    const field = partField(headers);
    if (field === undefined) malformed();
    else if (!field.isFile) fields.push([decodeUtf8(Buffer.from(field.name, 'latin1')), decodeUtf8(body.subarray(contentStart, next))]);
    at = next + CRLF.length;
  }
}

/** The field name of a part from its headers; undefined when it has no form-data disposition. */
function partField(headers: string): { name: string; isFile: boolean } | undefined {
  const disposition = headers.split('\r\n').find((line) => line.toLowerCase().startsWith('content-disposition:'));
  if (disposition === undefined) return undefined;
  const value = disposition.slice('content-disposition:'.length).trim();
  if (!value.toLowerCase().startsWith('form-data')) return undefined;
  const name = /(?:^|;)\s*name="([^"]*)"/i.exec(value) ?? /(?:^|;)\s*name=([^;\s]+)/i.exec(value);
  if (name?.[1] === undefined) return undefined;
  return { name: name[1], isFile: /(?:^|;)\s*filename\*?=/i.test(value) };
}
