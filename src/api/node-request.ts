/**
 * How the Transport (src/api/transport.ts) sends a request and reads its answer: Node's own
 * HTTP client (node:http, node:https), with keep-alive agents so calls of one run share their
 * connection. A command that makes one request would otherwise load undici and set up its
 * WebAssembly HTTP parser, which cost more start-up time than the request (bench/cold-start.mjs);
 * Node's parser is built in. undici stays for answers read as they arrive (server-sent events)
 * and for a dispatcher passed in (tests' MockAgent).
 *
 * What both clients give the Transport is a `Sent`: the status and headers once they are in,
 * and the body to read.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { socketsClosed } from '../util/sockets-closed.js';

/** Connect timeout (TCP + TLS), separate from the answer timeout. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** The code of the error a connection that took longer than CONNECT_TIMEOUT_MS ends with. */
export const CONNECT_TIMEOUT_CODE = 'KACTL_CONNECT_TIMEOUT';

/** An answer whose headers are in and whose body is still to read. */
export interface Sent {
  statusCode: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body's pieces; ends early with an error when the connection fails part way. */
  body: AsyncIterable<Buffer>;
  /** Stops reading (a body over the cap) and lets the connection go. */
  destroy(): void;
  /** Once the body has been read: whether it all came (a close before its length is a cut-off). */
  complete(): boolean;
}

export interface NodeRequest {
  method: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** Ends the request, or the reading of its body, at once (deadline, Ctrl-C). */
  signal: AbortSignal;
}

interface Client {
  request: typeof http.request;
  agent: http.Agent;
  secure: boolean;
}

/** The keep-alive agents of one Transport, one per scheme, made on first use. */
export class NodeAgents {
  private plain: Client | undefined;
  private secure: Client | undefined;

  /** `ca`: the authorities (PEM) HTTPS servers must chain to instead of the system's. */
  constructor(private readonly options: { ca?: string; keepAliveMs: number }) {}

  async client(url: URL): Promise<Client> {
    if (url.protocol === 'https:') {
      if (this.secure === undefined) {
        // node:https brings TLS along: loaded only for an https URL.
        const https = await import('node:https');
        const agent = new https.Agent({ keepAlive: true, timeout: this.options.keepAliveMs, ...(this.options.ca === undefined ? {} : { ca: this.options.ca }) });
        this.secure = { request: https.request, agent, secure: true };
      }
      return this.secure;
    }
    this.plain ??= { request: http.request, agent: new http.Agent({ keepAlive: true, timeout: this.options.keepAliveMs }), secure: false };
    return this.plain;
  }

  /**
   * Closes the connections kept alive, and resolves once they are closed (util/sockets-closed.ts:
   * a TLS socket frees its TLS state one loop turn after its 'close'), so the library's `close()`
   * leaves no handle behind (test/library/quiet-and-closed.test.ts).
   */
  async close(): Promise<void> {
    // Listened for before the agents destroy them (an agent's lists hold no socket whose 'close' has come).
    const closed = socketsClosed([this.plain, this.secure].flatMap((client) => (client === undefined ? [] : socketsOf(client.agent))), 1);
    this.plain?.agent.destroy();
    this.secure?.agent.destroy();
    await closed;
  }
}

/** The sockets an agent holds, busy or idle. */
function socketsOf(agent: http.Agent): Socket[] {
  return [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].flatMap((list) => list ?? []);
}

/** Sends one request; resolves once the answer's headers are in. */
export async function nodeRequest(agents: NodeAgents, url: URL, req: NodeRequest): Promise<Sent> {
  const { request, agent, secure } = await agents.client(url);
  return new Promise<Sent>((resolve, reject) => {
    const headers = req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
    const outgoing = request(url, { method: req.method, headers, agent, signal: req.signal });
    let answer: http.IncomingMessage | undefined;
    // Before the answer, a failure rejects; after it, it ends the body being read.
    outgoing.on('error', (error) => (answer === undefined ? reject(error) : answer.destroy(error)));
    outgoing.once('socket', (socket: Socket) => {
      if (!outgoing.reusedSocket) limitConnectTime(outgoing, socket, secure);
    });
    outgoing.once('response', (res: http.IncomingMessage) => {
      answer = res;
      resolve(sentOf(res, req.signal));
    });
    outgoing.end(req.body);
  });
}

/** A new connection gets CONNECT_TIMEOUT_MS to be made (and its TLS handshake done). */
function limitConnectTime(outgoing: http.ClientRequest, socket: Socket, secure: boolean): void {
  const timer = setTimeout(() => {
    outgoing.destroy(Object.assign(new Error(`connecting took longer than ${CONNECT_TIMEOUT_MS / 1000} s`), { code: CONNECT_TIMEOUT_CODE }));
  }, CONNECT_TIMEOUT_MS);
  const done = (): void => clearTimeout(timer);
  socket.once(secure ? 'secureConnect' : 'connect', done);
  socket.once('close', done);
}

function sentOf(res: http.IncomingMessage, signal: AbortSignal): Sent {
  // The deadline or Ctrl-C while the body arrives ends its reading with the signal's reason.
  const abort = (): void => {
    res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  };
  if (signal.aborted) abort();
  else {
    signal.addEventListener('abort', abort, { once: true });
    res.once('close', () => signal.removeEventListener('abort', abort));
  }
  return {
    statusCode: res.statusCode ?? 0,
    headers: res.headers,
    body: res,
    destroy: () => res.destroy(),
    complete: () => res.complete,
  };
}
