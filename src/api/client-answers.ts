/**
 * The answers of the client API as types (docs/protocol/client-api.md §4 and §5): what each
 * `type` returns on success, field by field. Values keep the wire's types: the server sends
 * Unix times and counts as strings where the protocol page says so.
 */

/** Fields every answer may carry besides its own: 1.3 adds `code` and `ownerid`, some add `nonce`. */
export interface AnswerBase {
  readonly success: true;
  readonly message: string;
  /** 1.3: a numeric code of the outcome. */
  readonly code?: number;
  /** 1.3: the application's owner id (the caller checks it is its own). */
  readonly ownerid?: string;
  readonly nonce?: string;
  /** Anything else a server adds. */
  readonly [field: string]: unknown;
}

/** §5.3: the application as `init` and `fetchStats` describe it; counts are strings. */
export interface AppInfo {
  readonly numUsers: string;
  readonly numOnlineUsers: string;
  readonly numKeys: string;
  readonly version: string;
  readonly customerPanelLink: string;
  readonly [field: string]: unknown;
}

/** §5.2: one active subscription of a user. */
export interface SubscriptionItem {
  /** The subscription's name. */
  readonly subscription: string;
  /** The key that granted it, or null. */
  readonly key: string | null;
  /** When it ends: absolute Unix seconds, as a string. */
  readonly expiry: string;
  /** Seconds left. */
  readonly timeleft: number;
  /** The subscription's level, as a string (login and license answers only). */
  readonly level?: string;
  readonly [field: string]: unknown;
}

/** §5.1: the user a login, license or register validated the session for. */
export interface UserInfo {
  /** The username (the key itself for license users). */
  readonly username: string;
  /** Active subscriptions only; clients take the first as "the" subscription. */
  readonly subscriptions: readonly SubscriptionItem[];
  readonly ip: string;
  /** On login the HWID stored before this call (null on the first); on register the one sent. */
  readonly hwid: string | null;
  /** Unix seconds, as strings. */
  readonly createdate: string;
  readonly lastlogin: string;
  readonly [field: string]: unknown;
}

/** `init`: the new session. */
export interface InitAnswer extends AnswerBase {
  readonly sessionid: string;
  readonly appinfo: AppInfo;
  readonly newSession: boolean;
}

/** `login`, `loginEmail`, `license`, `register`, `emailCodeVerify`: a validated session. */
export interface LoginAnswer extends AnswerBase {
  readonly info: UserInfo;
}

/** Answers that carry only `success` and `message`. */
export type MessageAnswer = AnswerBase;

/** `check`: the session is validated; 1.3 C++ clients read `role`. */
export interface CheckAnswer extends AnswerBase {
  readonly role?: string;
}

/**
 * `checkblacklist`, read the right way round: the wire's `success:true` means the client IS
 * blacklisted (§4.9), so the answer is given as `blacklisted`, whatever `success` said.
 */
export interface BlacklistAnswer {
  readonly blacklisted: boolean;
  readonly message: string;
  /** The server's body as it came. */
  readonly body: Readonly<Record<string, unknown>>;
}

/** `var`: a global variable; its value is the `message`. */
export interface VarAnswer extends AnswerBase {
  /** The variable's value. */
  readonly message: string;
}

/** `getvar`: a user variable's data. */
export interface GetvarAnswer extends AnswerBase {
  readonly response: string;
}

/** One chat message (§4.14). */
export interface ChatMessage {
  readonly author: string;
  readonly message: string;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly [field: string]: unknown;
}

/** `chatget`: the channel's last messages, oldest first (an unknown channel: none). */
export interface ChatgetAnswer extends AnswerBase {
  readonly messages: readonly ChatMessage[];
}

/** `webhook`: the remote answer's body (empty when the remote could not be reached). */
export interface WebhookAnswer extends AnswerBase {
  readonly response: string;
}

/** `file`: the whole file as lower-case hex (`Buffer.from(contents, 'hex')`). */
export interface FileAnswer extends AnswerBase {
  readonly contents: string;
}

/** `fetchOnline`: one row per online credential, cut to 10 characters. */
export interface FetchOnlineAnswer extends AnswerBase {
  readonly users: readonly { readonly credential: string }[];
}

/** `fetchStats`: the application's real counts. */
export interface FetchStatsAnswer extends AnswerBase {
  readonly appinfo: AppInfo;
}

/**
 * `2faenable`: the first call (no code) answers the secret to put in an authenticator app and
 * no message; the second (with a code) answers a message.
 */
export interface TwoFactorEnableAnswer {
  readonly success: true;
  readonly message?: string;
  readonly '2fa'?: {
    /** 40 base32 characters. */
    readonly secret_code: string;
    /** `otpauth://totp/<username>?secret=<secret>&issuer=KeyAuth` */
    readonly QRCode: string;
  };
  readonly [field: string]: unknown;
}

/**
 * `magicLinkCheck`: approved (a validated session and the user), or not yet: `success:false`
 * with `status` (`none`, `pending`, `expired`, `refused`, `used`) and the server's message.
 */
export type MagicLinkCheckAnswer = LoginAnswer | { readonly success: false; readonly message: string; readonly status?: string; readonly [field: string]: unknown };
