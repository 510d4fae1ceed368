/**
 * The vocabulary every part of the state engine shares: a plan's actions and their calls, the
 * sections of a state file, and how a plan is made. It imports nothing of the engine, so the
 * planners (records.ts, user-plan.ts, license-plan.ts, webhook-plan.ts), the replace builder
 * (replace.ts), the catalog's calls (sections.ts) and the run (run-plan.ts) all depend on it
 * and never on each other in a circle.
 */

export interface Call {
  type: string;
  params: Record<string, string>;
  /** A failure whose message matches counts as done (e.g. a whitelist already there). */
  okIf?: RegExp;
}

/** A parameter value an action works out only when it runs (from an earlier answer, or the clock). */
export const LATER = '…';

export type Verb = 'create' | 'update' | 'delete' | 'replace' | 'ensure';

/** What an action that decides its calls as it goes (`run`) may use. */
export interface ActionIO {
  /** Sends one call (paced like every other); resolves with the answer, throws KactlError. */
  send(call: Call): Promise<Record<string, unknown>>;
  /** The server's clock in whole seconds, as well as kactl knows it. */
  nowSeconds(): number;
}

export interface Action {
  section: Section;
  verb: Verb;
  /** Who: a key, a username, a name. */
  id: string;
  /** What changes, for the plan (never a password, never a value from the environment). */
  detail: string[];
  /**
   * The calls, in order: sent one by one, or, with `run`, the calls it usually makes (plan and
   * estimate); with `batch`, the one call it shares with the other actions of the batch.
   */
  calls: Call[];
  /** Carries the action out when later calls depend on earlier answers. */
  run?: (io: ActionIO) => Promise<void>;
  /** Done together with other actions by one call: every action of a batch holds the same object. */
  batch?: Batch;
  /** Actions with the same lane run one after the other (they touch the same user). */
  lane?: string;
  /** The username this action gives a random password (no password was known). */
  randomPassword?: string;
}

/** Actions one call carries out together (keys made by one `add`: key-batches.ts). */
export interface Batch {
  /** The call, counted once in the estimate. */
  call: Call;
  /** Sends it and checks the answer; throws KactlError when it did not do what it should. */
  run(io: ActionIO): Promise<void>;
}

export const SECTIONS = ['app', 'subscriptions', 'licenses', 'users', 'variables', 'uservars', 'channels', 'webhooks', 'files', 'blacklists', 'whitelists', 'team'] as const;
export type Section = (typeof SECTIONS)[number];

export type Row = Record<string, unknown>;

/** How a plan is made, and what it could not do (filled in while planning). */
export interface Planning {
  /** Delete what the file's sections do not list. */
  prune: boolean;
  /** Restore: create what is missing, leave every record on the server as it is. */
  createOnly: boolean;
  /** Full URLs given for webhooks whose URL the file (or backup) holds only the start of. */
  urls: ReadonlyMap<string, string>;
  /** Records that cannot be made or changed through the seller API, one sentence each. */
  leftOut: string[];
  /** What is done but comes out otherwise than the file says, or stays as it is: said before the plan, not a failure. */
  notes: string[];
  /** How many given keys one `add` may make: 1 unless the server says it takes more (key-batches.ts). */
  keysPerCall: number;
  /** Words a user's create line adds, by username: what of theirs cannot come back (a restore's, unreadable.ts). */
  userDetail: ReadonlyMap<string, readonly string[]>;
}

export function planning(options: Partial<Omit<Planning, 'leftOut' | 'notes'>> = {}): Planning {
  return {
    prune: options.prune ?? false,
    createOnly: options.createOnly ?? false,
    urls: options.urls ?? new Map(),
    leftOut: [],
    notes: [],
    keysPerCall: options.keysPerCall ?? 1,
    userDetail: options.userDetail ?? new Map(),
  };
}

