/**
 * `kactl/client`: a typed client of one application on a KeyAuth-style server, for Node
 * programs and tests. One method per client `type` the CLI sends (CLIENT_METHODS below; the
 * wire's names, `2faenable` as `twoFactorEnable`), with the wire's parameter names and typed
 * answers (client-answers.ts). Under it is the CLI's own caller (client-api.ts): the same 1.3
 * and 1.2 encodings, Ed25519 and HMAC checks, retries and errors.
 *
 * A client keeps its session in memory (or in the SessionStore given), so `init()` then
 * `login()` then `var()` work in turn, as a protected program's calls do. It prints nothing:
 * warnings go to the `logger`, if one is given.
 *
 * A refusal the wire sends as `success:true` (the client catalog's `refusalAsSuccess`: a wrong
 * 2FA code, `setvar` without data) throws ApiFailure, from the methods and from `call`, as the
 * CLI's commands exit 1 on it (src/api/disguised-refusal.ts); `request` returns the answer as sent.
 */
import type {
  BlacklistAnswer,
  ChatgetAnswer,
  CheckAnswer,
  FetchOnlineAnswer,
  FetchStatsAnswer,
  FileAnswer,
  GetvarAnswer,
  InitAnswer,
  LoginAnswer,
  MagicLinkCheckAnswer,
  MessageAnswer,
  TwoFactorEnableAnswer,
  VarAnswer,
  WebhookAnswer,
} from './client-answers.js';
import { ClientApi, missingKeyMessage } from './client-api.js';
import type { ClientAnswer, ClientCallOptions, ParamValue } from './client-api.js';
import type { ClientApiVersion } from './client-catalog/index.js';
import { refuseDisguisedFailure } from './disguised-refusal.js';
import { logLine, type Logger } from './logger.js';
import { memorySessionStore, type SessionStore, type StoredSession } from './session.js';
import { memoryAnswerMemory, type AnswerMemory } from './verify.js';
import { UsageError } from './errors.js';
import { Transport } from './transport.js';

export interface ClientOptions {
  /** The server's root, e.g. `https://keyauth.win` or a sandbox's `baseUrl`. */
  readonly baseUrl: string;
  readonly appName: string;
  /** The application's owner id (10 characters). */
  readonly ownerid: string;
  /** Sent as `ver` at init; empty (the default) skips the server's version check. */
  readonly appVersion?: string;
  /** Unset: 1.3 for everything except chat and user variables, which go to 1.2 as the spec has them. */
  readonly api?: ClientApiVersion;
  /** 1.3 only: every call as GET with a query or as POST with a form. Unset: POST for a call carrying a password, key, code or token, GET for the rest. */
  readonly method?: 'get' | 'post';
  /**
   * The server's Ed25519 public key (64 hex): every 1.3 answer's signature is checked with it.
   * Required unless `api` is `1.2` or `verify` is false: createClient throws a UsageError without it.
   */
  readonly publicKey?: string;
  /**
   * The app secret: every 1.2 answer's HMAC is checked with it. Required with `api: '1.2'` (unless
   * `verify` is false); without it, a call that goes to 1.2 (chat, user variables) throws a UsageError, unsent.
   */
  readonly secret?: string;
  /** Accepted distance between a 1.3 answer's timestamp and our clock, in seconds (default 60). */
  readonly signatureWindowSec?: number;
  /** False skips the signature checks (a warning is logged once), and is the one way to do without a key. Default true. */
  readonly verify?: boolean;
  /** Per request, in ms (default 15 000). */
  readonly timeoutMs?: number;
  /** Certificate authorities (PEM) an HTTPS server must chain to, instead of the system's. */
  readonly ca?: string;
  /** Where the session is kept; default: in this client's memory. */
  readonly session?: SessionStore;
  /**
   * The signatures of answers accepted before, for the replay check; default: this client's last
   * 128, in memory (a restarted program forgets them). `fileAnswerMemory(path)` keeps them in a file.
   */
  readonly answerMemory?: AnswerMemory;
  /** Aborts every call (an InterruptedError). */
  readonly signal?: AbortSignal;
  /** Retry notes and warnings; default: none are written anywhere. */
  readonly logger?: Logger;
  /** Our clock in ms since the epoch (signature timestamps are checked against it). Default Date.now. */
  readonly now?: () => number;
}

/** Options of one call. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the API version for this call. */
  readonly api?: ClientApiVersion;
  readonly timeoutMs?: number;
}

/** A typed client of one application. Close it when done (or `await using`). */
export interface KactlClient {
  /** The session `init` opened, if any. */
  readonly session: StoredSession | undefined;
  /** Opens a session (sends `ver` and a fresh `enckey`); later calls use it. */
  init(params?: { hash?: string; token?: string; thash?: string }, options?: CallOptions): Promise<InitAnswer>;
  login(params: { username: string; pass: string; hwid?: string; code?: string; token?: string }, options?: CallOptions): Promise<LoginAnswer>;
  /** 1.3 only. */
  loginEmail(params: { email: string; pass: string; hwid?: string; code?: string }, options?: CallOptions): Promise<LoginAnswer>;
  /** Logs in with a key (registering a user named after it on first use). */
  license(params: { key: string; hwid?: string; code?: string }, options?: CallOptions): Promise<LoginAnswer>;
  register(params: { username: string; pass: string; key: string; email?: string; hwid?: string }, options?: CallOptions): Promise<LoginAnswer>;
  /** Adds a key's subscription to a user; the session stays unvalidated. */
  upgrade(params: { username: string; key: string }, options?: CallOptions): Promise<MessageAnswer>;
  logout(options?: CallOptions): Promise<MessageAnswer>;
  check(options?: CallOptions): Promise<CheckAnswer>;
  /** Whether this HWID or the client's IP is blacklisted (the wire's inverted answer, read right). */
  checkblacklist(params?: { hwid?: string }, options?: CallOptions): Promise<BlacklistAnswer>;
  ban(params?: { reason?: string; hwid?: string }, options?: CallOptions): Promise<MessageAnswer>;
  /** A global variable: its value is the answer's `message`. */
  var(params: { varid: string }, options?: CallOptions): Promise<VarAnswer>;
  getvar(params: { var: string }, options?: CallOptions): Promise<GetvarAnswer>;
  setvar(params: { var: string; data: string }, options?: CallOptions): Promise<MessageAnswer>;
  chatget(params: { channel: string }, options?: CallOptions): Promise<ChatgetAnswer>;
  chatsend(params: { channel: string; message: string }, options?: CallOptions): Promise<MessageAnswer>;
  webhook(params: { webid: string; params?: string; body?: string; conttype?: string }, options?: CallOptions): Promise<WebhookAnswer>;
  file(params: { fileid: string }, options?: CallOptions): Promise<FileAnswer>;
  log(params: { message: string; pcuser: string }, options?: CallOptions): Promise<MessageAnswer>;
  fetchOnline(options?: CallOptions): Promise<FetchOnlineAnswer>;
  fetchStats(options?: CallOptions): Promise<FetchStatsAnswer>;
  changeUsername(params: { newUsername: string }, options?: CallOptions): Promise<MessageAnswer>;
  forgot(params: { username: string; email: string }, options?: CallOptions): Promise<MessageAnswer>;
  /** `2faenable`: without a code, the secret to enrol; with one, turns 2FA on. */
  twoFactorEnable(params?: { code?: string }, options?: CallOptions): Promise<TwoFactorEnableAnswer>;
  /** `2fadisable`. */
  twoFactorDisable(params: { code: string }, options?: CallOptions): Promise<MessageAnswer>;
  magicLinkSend(params: { email: string; hwid?: string }, options?: CallOptions): Promise<MessageAnswer>;
  /** Polls the link `magicLinkSend` mailed: a login once approved, `success:false` with a status until then. */
  magicLinkCheck(params?: { code?: string }, options?: CallOptions): Promise<MagicLinkCheckAnswer>;
  emailCodeSend(params: { email: string; hwid?: string }, options?: CallOptions): Promise<MessageAnswer>;
  /** `totp` is the authenticator's code when the account has 2FA (`code` is the emailed one). */
  emailCodeVerify(params: { email: string; code: string; hwid?: string; totp?: string }, options?: CallOptions): Promise<LoginAnswer>;
  /** Any `type`, with any parameters: the parsed body (a `success:false`, or a refusal sent as a success, throws ApiFailure). */
  call(type: string, params?: Readonly<Record<string, ParamValue>>, options?: CallOptions): Promise<Record<string, unknown>>;
  /** Like `call`, with the status, headers and exact bytes of the answer. */
  request(type: string, params?: Readonly<Record<string, ParamValue>>, options?: CallOptions): Promise<ClientAnswer>;
  /** Closes the client's connections. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Method name → wire `type`, for every type the client sends. */
export const CLIENT_METHODS = {
  init: 'init',
  login: 'login',
  loginEmail: 'loginEmail',
  license: 'license',
  register: 'register',
  upgrade: 'upgrade',
  logout: 'logout',
  check: 'check',
  checkblacklist: 'checkblacklist',
  ban: 'ban',
  var: 'var',
  getvar: 'getvar',
  setvar: 'setvar',
  chatget: 'chatget',
  chatsend: 'chatsend',
  webhook: 'webhook',
  file: 'file',
  log: 'log',
  fetchOnline: 'fetchOnline',
  fetchStats: 'fetchStats',
  changeUsername: 'changeUsername',
  forgot: 'forgot',
  twoFactorEnable: '2faenable',
  twoFactorDisable: '2fadisable',
  magicLinkSend: 'magicLinkSend',
  magicLinkCheck: 'magicLinkCheck',
  emailCodeSend: 'emailCodeSend',
  emailCodeVerify: 'emailCodeVerify',
} as const satisfies Record<Exclude<keyof KactlClient, 'session' | 'call' | 'request' | 'close' | typeof Symbol.asyncDispose>, string>;

type Params = Readonly<Record<string, ParamValue>>;

/**
 * Fails closed: a client that checks signatures (the default) needs the key of the version its
 * calls go to: `publicKey` (1.3, the default), or `secret` with `api: '1.2'`. A key left out, or
 * read from an unset variable, is a UsageError here rather than answers nobody checked.
 */
function requireKey(options: ClientOptions): void {
  if (options.verify === false) return;
  const api = options.api ?? '1.3';
  const key = api === '1.3' ? options.publicKey : options.secret;
  if (key === undefined || key === '') throw new UsageError(missingKeyMessage(api));
}

/** A client of one application; see ClientOptions. */
export function createClient(options: ClientOptions): KactlClient {
  requireKey(options);
  const transport = new Transport({
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.logger?.debug ? { verbose: logLine(options.logger, 'debug') } : {}),
  });
  const session = options.session ?? memorySessionStore();
  const api = new ClientApi({
    baseUrl: options.baseUrl,
    appName: options.appName,
    ownerid: options.ownerid,
    appVersion: options.appVersion ?? '',
    ...(options.api === undefined ? {} : { api: options.api }),
    ...(options.method === undefined ? {} : { method: options.method }),
    ...(options.publicKey === undefined ? {} : { publicKey: options.publicKey }),
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.signatureWindowSec === undefined ? {} : { signatureWindowSec: options.signatureWindowSec }),
    verify: options.verify ?? true,
    answerMemory: options.answerMemory ?? memoryAnswerMemory(),
    transport,
    warn: logLine(options.logger, 'warn'),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    session,
  });
  const callOptions = (options: CallOptions = {}, extra: ClientCallOptions = {}): ClientCallOptions => ({ ...options, ...extra });
  const call = async <T>(type: string, params: Params = {}, options?: CallOptions, extra?: ClientCallOptions): Promise<T> => {
    const body = await api.call(type, params, callOptions(options, extra));
    refuseDisguisedFailure(type, body);
    return body as T;
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= transport.close());

  return {
    get session() {
      return session.load();
    },
    init: (params = {}, options) => api.init(params, callOptions(options)) as Promise<InitAnswer>,
    login: (params, options) => call('login', params, options),
    loginEmail: (params, options) => call('loginEmail', params, options),
    license: (params, options) => call('license', params, options),
    register: (params, options) => call('register', params, options),
    upgrade: (params, options) => call('upgrade', params, options),
    logout: (options) => call('logout', {}, options),
    check: (options) => call('check', {}, options),
    checkblacklist: async (params = {}, options) => {
      const body = await call<Record<string, unknown>>('checkblacklist', params, options, { acceptFailure: true });
      return { blacklisted: body.success === true, message: typeof body.message === 'string' ? body.message : '', body };
    },
    ban: (params = {}, options) => call('ban', params, options),
    var: (params, options) => call('var', params, options),
    getvar: (params, options) => call('getvar', params, options),
    setvar: (params, options) => call('setvar', params, options),
    chatget: (params, options) => call('chatget', params, options),
    chatsend: (params, options) => call('chatsend', params, options),
    webhook: (params, options) => call('webhook', params, options),
    file: (params, options) => call('file', params, options),
    log: (params, options) => call('log', params, options),
    fetchOnline: (options) => call('fetchOnline', {}, options),
    fetchStats: (options) => call('fetchStats', {}, options),
    changeUsername: (params, options) => call('changeUsername', params, options),
    forgot: (params, options) => call('forgot', params, options),
    twoFactorEnable: (params = {}, options) => call('2faenable', params, options),
    twoFactorDisable: (params, options) => call('2fadisable', params, options),
    magicLinkSend: (params, options) => call('magicLinkSend', params, options),
    magicLinkCheck: (params = {}, options) => call('magicLinkCheck', params, options, { acceptFailure: true }),
    emailCodeSend: (params, options) => call('emailCodeSend', params, options),
    emailCodeVerify: (params, options) => call('emailCodeVerify', params, options),
    call: (type, params = {}, options) => call(type, params, options),
    request: (type, params = {}, options) => api.request(type, params, callOptions(options)),
    close,
    [Symbol.asyncDispose]: close,
  };
}
