/**
 * The options of `kactl sandbox start`, as commander hands them over: shared by the foreground
 * server (start.ts) and `--detach` (detach.ts), which start.ts loads lazily; a file of its own so
 * neither imports the other for it.
 */
export interface StartOptions {
  host: string;
  /** Not given: the store's last port when it is free (server/store/last-port.ts), else a free one. */
  port?: number;
  data?: string;
  appName?: string;
  ownerid?: string;
  sellerKey?: string;
  failureStatus: '200' | '400';
  rateLimit: boolean;
  trustProxy?: boolean;
  /** `--cors ORIGIN`, repeatable: pages of these origins may read answers, besides loopback pages. */
  cors?: string[];
  panelUrl?: string;
  profile: boolean;
  profileName?: string;
  /** Replace a profile of that name that no sandbox made. */
  force?: boolean;
  detach?: boolean;
  /** Internal: this process is the background server of `--detach`, logging to this file. */
  backgroundLog?: string;
  seed?: string;
  tls?: boolean;
  hostname?: string;
  logLimit: number;
}
