/**
 * The last signed client answer the sandbox sent to each client, for the `replay` fault: it sends
 * that answer again, byte for byte, headers included, in place of the one it would send now.
 * Answers are remembered only while a fault that replays them is held (FaultBook `remembers`).
 *
 * A client is its session once it has one: the answers to a request that carries a `sessionid`
 * are remembered under that session (and the app and API version), and so is an `init` answer,
 * under the session it opened. Only a request without a session (`init`) goes by the client IP,
 * API version and app, the one thing that tells its client before a session exists. So two
 * programs behind one IP (`--trust-proxy`, one forwarded address) never get each other's session
 * answers; two inits from one IP may still get each other's init answer, which names the session
 * the first opened. Bounded: the least recently answered clients are forgotten first.
 *
 * `replay-type` (kactl sandbox audit's replay across two runs of a program) looks up the last
 * answer of the request's API type by the client IP, API version and app, whatever the session:
 * a second run opens a new one. That key is shared by every program behind one IP, which is the
 * point of the fault (an earlier run's login played back); it is held only while one is armed.
 */
import type { EncodedResponse } from '../http/encoded-response.js';

/** Clients remembered at most; a sandbox under test seldom sees more than a handful. */
const MAX_CLIENTS = 1000;

export interface RememberedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Who a client request comes from, as far as the request tells. */
export interface ClientOf {
  readonly api: '1.3' | '1.2';
  readonly ip: string;
  readonly ownerid: string;
  readonly name: string;
  /** The session the request carries; undefined for init. */
  readonly session: string | undefined;
}

function sessionKey(client: ClientOf, session: string): string {
  return `session\u0000${client.api}\u0000${client.ownerid}\u0000${client.name}\u0000${session}`;
}

/** The key answers to this request are remembered and looked up under. */
export function clientKey(client: ClientOf): string {
  if (client.session !== undefined) return sessionKey(client, client.session);
  return ipKey(client);
}

function ipKey(client: ClientOf): string {
  return `ip\u0000${client.api}\u0000${client.ownerid}\u0000${client.name}\u0000${client.ip}`;
}

/** The session an init answer opened (its `sessionid`); read only from a JSON body that has one. */
function openedSession(body: Buffer): string | undefined {
  return /"sessionid":"([^"\\]{1,200})"/.exec(body.toString('latin1'))?.[1];
}

export class LastAnswers {
  private readonly answers = new Map<string, RememberedAnswer>();
  /** The last answer of each API type to each client IP and app (`replay-type`). */
  private readonly byType = new Map<string, RememberedAnswer>();

  /** Keeps a signed answer with a whole body (a streamed file answer is not kept: too large), and `type`'s last. */
  remember(client: ClientOf, response: EncodedResponse, type: string | undefined): void {
    if (!Buffer.isBuffer(response.body) || response.stream !== undefined) return;
    const answer = { status: response.status, headers: response.headers, body: response.body };
    keep(this.answers, clientKey(client), answer);
    // Each client has a handful of types at most: a few entries per client.
    if (type !== undefined) keep(this.byType, `${ipKey(client)}\u0000${type}`, answer, MAX_CLIENTS * 8);
    if (client.session !== undefined) return;
    const opened = openedSession(response.body);
    if (opened !== undefined) keep(this.answers, sessionKey(client, opened), answer);
  }

  previous(client: ClientOf): RememberedAnswer | undefined {
    return this.answers.get(clientKey(client));
  }

  clear(): void {
    this.answers.clear();
    this.byType.clear();
  }

  /** The last answer of `type` to this client's IP and app, whatever its session. */
  previousOfType(client: ClientOf, type: string | undefined): RememberedAnswer | undefined {
    return type === undefined ? undefined : this.byType.get(`${ipKey(client)}\u0000${type}`);
  }
}

/** Sets `key` as the newest entry of `map`, forgetting the least recently set past `max`. */
function keep(map: Map<string, RememberedAnswer>, key: string, answer: RememberedAnswer, max = MAX_CLIENTS): void {
  map.delete(key);
  map.set(key, answer);
  if (map.size > max) map.delete(map.keys().next().value!);
}
