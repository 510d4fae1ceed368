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
  /** The last answer of each API type to each client (`replay-type`), bounded as `answers`. */
  private readonly byType = new Map<string, RememberedAnswer>();

  /** Keeps a signed answer with a whole body (a streamed file answer is not kept: too large). */
  remember(client: string, response: EncodedResponse, type?: string): void {
    if (!Buffer.isBuffer(response.body) || response.stream !== undefined) return;
    const kept = { status: response.status, headers: response.headers, body: response.body };
    keep(this.answers, client, kept);
    // Each client has a handful of types at most: a few entries per client.
    if (type !== undefined) keep(this.byType, `${client}\u0000${type}`, kept, MAX_CLIENTS * 8);
  }

  previous(client: string): RememberedAnswer | undefined {
    return this.answers.get(client);
  }

  /** The last answer of `type` this client got. */
  previousOfType(client: string, type: string | undefined): RememberedAnswer | undefined {
    return type === undefined ? undefined : this.byType.get(`${client}\u0000${type}`);
  }
}

/** Sets `key` as the newest entry of `map`, forgetting the least recently set past `max`. */
function keep(map: Map<string, RememberedAnswer>, key: string, answer: RememberedAnswer, max = MAX_CLIENTS): void {
  map.delete(key);
  map.set(key, answer);
  if (map.size > max) map.delete(map.keys().next().value!);
}
