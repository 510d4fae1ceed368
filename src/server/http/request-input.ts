/**
 * Turning an HTTP request into a path, a raw query and Params, with the sandbox's limits:
 * URL ≤ 32 KiB (414), body ≤ 1 MiB (413), strict percent-decoding and UTF-8 (400), and a POST
 * body must be a form, urlencoded or multipart (415) — except where JSON is allowed (the seller
 * `add` shop hook).
 */
import type { IncomingMessage } from 'node:http';
import { Params } from '../dispatch/params.js';
import { decodeForm, decodeUtf8 } from './form-decode.js';
import { InputError, MESSAGES } from './input-error.js';
import type { MaybePromise } from './maybe-async.js';
import { decodeMultipart, multipartBoundary } from './multipart-decode.js';
import { readBody } from './read-body.js';

export const MAX_URL_LENGTH = 32 * 1024;
export const MAX_BODY_BYTES = 1024 * 1024;
/** Node's own header parser limit; a request line past it never reaches us (see server.ts). */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface RequestInput {
  readonly path: string;
  readonly rawQuery: string;
  readonly params: Params;
  /** A JSON body as text, where allowed; else undefined. */
  readonly body: string | undefined;
}

/** Splits `req.url` into path and raw query (URL length already checked). */
export function splitUrl(url: string): { path: string; rawQuery: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, rawQuery: '' } : { path: url.slice(0, q), rawQuery: url.slice(q + 1) };
}

/** Raw non-ASCII bytes in the request line arrive as latin1 characters; they must be UTF-8. */
function urlText(url: string): string {
  return NON_ASCII.test(url) ? decodeUtf8(Buffer.from(url, 'latin1')) : url;
}

const NON_ASCII = /[\u0080-\uffff]/;

function mediaType(req: IncomingMessage): { type: string; charset: string | undefined; header: string } | undefined {
  const header = req.headers['content-type'];
  if (header === undefined || header.trim() === '') return undefined;
  const [type = '', ...rest] = header.split(';');
  const charset = rest.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  return { type: type.trim().toLowerCase(), charset, header };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * The request's input. Ready at once (no promise) when there is no body to read, which is every
 * GET: see maybe-async.ts. Refusals are thrown (an InputError), synchronously or as a rejection.
 */
export function readRequestInput(req: IncomingMessage, options: { allowJsonBody: boolean }): MaybePromise<RequestInput> {
  const url = req.url ?? '/';
  if (url.length > MAX_URL_LENGTH) throw new InputError(414, MESSAGES.urlTooLong, {}, `the URL is ${url.length} bytes; at most ${MAX_URL_LENGTH}`);
  const { path, rawQuery } = splitUrl(urlText(url));
  const query = decodeForm(rawQuery);
  if (req.method !== 'POST') return { path, rawQuery, params: Params.merge([], query), body: undefined };

  const media = mediaType(req);
  if (media === undefined) {
    if (hasBody(req)) throw new InputError(415, MESSAGES.unsupportedType, {}, 'a POST body without a Content-Type');
    return { path, rawQuery, params: Params.merge([], query), body: undefined };
  }
  return readBodyInput(req, media, options, path, rawQuery, query);
}

async function readBodyInput(
  req: IncomingMessage,
  media: { type: string; charset: string | undefined; header: string },
  options: { allowJsonBody: boolean },
  path: string,
  rawQuery: string,
  query: [string, string][],
): Promise<RequestInput> {
  if (media.charset !== undefined && media.charset !== 'utf-8' && media.charset !== 'utf8') {
    throw new InputError(415, MESSAGES.unsupportedType, {}, `the body's charset is ${media.charset}; only UTF-8 is read`);
  }
  const isForm = media.type === 'application/x-www-form-urlencoded';
  const isJson = media.type === 'application/json' && options.allowJsonBody;
  if (media.type === 'multipart/form-data') {
    const boundary = multipartBoundary(media.header);
    if (boundary === undefined) throw new InputError(400, MESSAGES.malformedMultipart);
    const fields = decodeMultipart(await readBody(req, MAX_BODY_BYTES), boundary);
    return { path, rawQuery, params: Params.merge(fields, query), body: undefined };
  }
  if (!isForm && !isJson) throw new InputError(415, MESSAGES.unsupportedType, {}, `a body of type ${media.type}, which this path does not read`);

  const text = decodeUtf8(await readBody(req, MAX_BODY_BYTES));
  if (isJson) return { path, rawQuery, params: Params.merge([], query), body: text };
  return { path, rawQuery, params: Params.merge(decodeForm(text), query), body: undefined };
}

/** Best-effort read of one query parameter for an error answer (never throws). */
export function lenientQueryParam(url: string | undefined, name: string): string | undefined {
  try {
    return new URLSearchParams(splitUrl(url ?? '').rawQuery).get(name)?.trim() || undefined;
  } catch {
    return undefined;
  }
}
