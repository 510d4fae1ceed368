/** A request the sandbox refuses before any handler runs: bad encoding, too large, wrong type... */
export class InputError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Why, in more words than the message, when there is more to say (the request inspector records it). */
  readonly reason: string | undefined;
  constructor(status: number, message: string, headers: Readonly<Record<string, string>> = {}, reason?: string) {
    super(message);
    this.name = 'InputError';
    this.status = status;
    this.headers = headers;
    this.reason = reason;
  }
}

export const MESSAGES = {
  malformedEncoding: 'Malformed percent-encoding in the request parameters',
  invalidUtf8: 'The request parameters are not valid UTF-8',
  bodyTooLarge: 'Request body too large',
  urlTooLong: 'Request URL too long',
  headersTooLarge: 'Request headers too large',
  badRequest: 'Malformed HTTP request',
  unsupportedType: 'Unsupported content type; send application/x-www-form-urlencoded or multipart/form-data',
  malformedMultipart: 'Malformed multipart/form-data body',
  methodNotAllowed: 'Method not allowed',
  notFound: 'Not found',
  unknownHost: 'This sandbox does not answer to that host name; use a loopback address, its own address, or the name given with --hostname',
  privateNetwork: 'Private Network Access refused: start the sandbox with --cors ORIGIN to let that page reach it',
  internal: 'Error: internal server error',
} as const;
