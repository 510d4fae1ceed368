/**
 * The last signed client answer the sandbox sent to each client, for the `replay` fault: it sends
 * that answer again, byte for byte, headers included, in place of the one it would send now.
 *
 * A client is the client IP, the API version and the app (name and ownerid): a program on one
 * machine talks to one app, and it keeps its session only within it. A session id would not do,
 * since `init` (the first answer worth replaying) is sent before the client has one. Bounded:
 * the least recently answered clients are forgotten first.
 */
import type { EncodedResponse } from '../http/encoded-response.js';

/** Clients remembered at most; a sandbox under test seldom sees more than a handful. */
const MAX_CLIENTS = 1000;

export interface RememberedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export class LastAnswers {
  private readonly answers = new Map<string, RememberedAnswer>();

  /** Keeps a signed answer with a whole body (a streamed file answer is not kept: too large). */
  remember(client: string, response: EncodedResponse): void {
    if (!Buffer.isBuffer(response.body) || response.stream !== undefined) return;
    this.answers.delete(client);
    this.answers.set(client, { status: response.status, headers: response.headers, body: response.body });
    if (this.answers.size > MAX_CLIENTS) this.answers.delete(this.answers.keys().next().value!);
  }

  previous(client: string): RememberedAnswer | undefined {
    return this.answers.get(client);
  }
}
