/**
 * The seller API described once, as data (docs/design.md, "Shape of the code").
 *
 * One entry per operation drives three things:
 *  - the CLI's seller command groups, their flags (a list's filters too), help text and examples
 *    (src/commands/seller/), and what the state engine reads and sends (src/state/sections.ts);
 *  - the protocol library's treatment of the answer (list key, empty-list messages, retry rules);
 *  - the sandbox's parameter checks before a handler runs (src/server/seller/).
 * Hand-written code exists only where an operation needs more than this gives.
 */
import type { ColumnSpec, WireType } from './columns.js';

/** The CLI group an operation lives in: `kactl <group> ...`. */
export type SellerGroup =
  | 'app'
  | 'licenses'
  | 'users'
  | 'subs'
  | 'sessions'
  | 'vars'
  | 'uservars'
  | 'webhooks'
  | 'files'
  | 'blacklists'
  | 'whitelists'
  | 'chats'
  | 'logs'
  | 'loader'
  | 'team';

/**
 * How a value is checked and converted.
 * - `string`: any non-empty text.
 * - `integer` / `number`: decimal; `number` allows fractions (license expiry in days).
 * - `bool01`: the server wants `1` or `0`; the CLI exposes a boolean flag (`--user-too`).
 * - `booltext`: the server wants `true` or `false` (updatesettings).
 * - `enum`: one of `choices`, exact case.
 */
export type ParamType = 'string' | 'integer' | 'number' | 'bool01' | 'booltext' | 'enum';

export interface ParamSpec {
  /** Query parameter name on the wire, exact case (`sessID`, `newUsername`, `userToo`). */
  readonly wire: string;
  /**
   * CLI spelling, kebab-case, in plain words: `user-too` → `--user-too`. For a positional
   * argument it is the argument's name (`key` → `<key>`).
   */
  readonly flag: string;
  /**
   * Other spellings the CLI accepts for the flag, hidden from help (`--value` for `--data`,
   * the word people reach for first). Never for a positional argument.
   */
  readonly flagAliases?: readonly string[];
  /** Taken from a positional argument rather than a flag (at most one per op, and first). */
  readonly positional?: boolean;
  readonly type: ParamType;
  /** Required by the server. The sandbox answers a missing one with the spec's error shape. */
  readonly required: boolean;
  /**
   * `bool01` only: the server keeps the current value when the parameter is absent, so the CLI
   * has an off switch too (`--require-login` sends 1, `--no-require-login` 0, neither nothing).
   */
  readonly negatable?: boolean;
  /** One line for help text; says the unit where there is one. */
  readonly description: string;
  /** What the number means on the wire; help shows it and the flag name should say it. */
  readonly unit?: 'days' | 'seconds' | 'minutes';
  readonly choices?: readonly string[];
  /** Other wire names some clients send for the same value; the sandbox accepts them too. */
  readonly wireAliases?: readonly string[];
  /** Never echoed, masked in --verbose, read with a hidden prompt or --<flag>-stdin. */
  readonly secret?: boolean;
  /** The server's default when the parameter is omitted (documentation only). */
  readonly serverDefault?: string;
  /** Largest accepted length in characters, where the server enforces one. */
  readonly maxLength?: number;
  /**
   * The list operation (`type`) whose records name the values this parameter takes: shell
   * completion offers the list's first column (`fetchallsubs` for a subscription name).
   */
  readonly completeFrom?: string;
  /**
   * A kactl sandbox extension (docs/protocol/seller-api.md §1.7): the hosted
   * service does not know the parameter and quietly ignores it, which could do something else
   * than asked (`add` without its `keys` makes one random key). So it has no CLI flag, and kactl
   * sends it only to a server whose `getsettings` names this extension under
   * `sandbox.extensions`, never on a guess.
   */
  readonly sandboxExtension?: string;
}

/** What the answer carries beside `success` and `message`. */
export type ResponseSpec =
  /** Only `success` and `message`. */
  | { readonly kind: 'message' }
  /**
   * A list under `key`. An empty list may come back as HTTP 406 and `emptyMessage`
   * (e.g. `No keys found`); the CLI treats that as an empty result, exit 0.
   * `columns` are the fields a table shows, in order, each with its label and kind.
   */
  | { readonly kind: 'list'; readonly key: string; readonly columns: readonly ColumnSpec[]; readonly emptyMessage: string }
  /**
   * One record under `key` (`appdetails`, `file`, `balance`). `noMessage`: the reference server's
   * success carries no `message` (here and below).
   */
  | { readonly kind: 'object'; readonly key: string; readonly fields: readonly ColumnSpec[]; readonly noMessage?: true }
  /** Fields at the top level of the body (`stats`, `info`, `getsettings`, `userdata`). */
  | { readonly kind: 'flat'; readonly fields: readonly ColumnSpec[]; readonly noMessage?: true }
  /**
   * A single value under `key` (`getkey` → `key`, `getvar` → `response`, `retrvvar` → `message`).
   * `fromMessage`: servers that send the value only inside the message (the first group of this
   * pattern), so a success without `key` is still complete. `wire` and `nullable` as a column's
   * (ColumnSpec): what the value is in the JSON (default text).
   */
  | { readonly kind: 'value'; readonly key: string; readonly fromMessage?: RegExp; readonly wire?: WireType; readonly nullable?: true; readonly noMessage?: true }
  /** New license keys: `key` for one, `keys` for several; `format=text` gives one a line. */
  | { readonly kind: 'keys' };

/**
 * How a list filter tests a row. The seller API has no server-side filters: kactl reads the
 * whole list and keeps the rows that pass every filter given (`field` is a column's kactl name).
 * - `equals`: the field is the value; `values` maps the flag's choices to the server's words
 *   (`--status unused` is `Not Used`), compared without case;
 * - `before` / `after`: a date field is before / at or after a moment (a date, a UTC time, or a
 *   duration ago: `7d`);
 * - `set` / `unset`: a switch; the field is non-empty / empty (a HWID, a ban reason);
 * - `yes` / `no`: a switch; the field is a yes / a no (`1`, `true`);
 * - `subscription` / `expiring-within`: the row's subscriptions, read with `from` (one call a
 *   row): one of the given name is running / one ends within a duration from now.
 */
export type FilterTest =
  | { readonly kind: 'equals'; readonly field: string; readonly values?: Readonly<Record<string, string>> }
  | { readonly kind: 'before' | 'after' | 'set' | 'unset' | 'yes' | 'no'; readonly field: string }
  | { readonly kind: 'subscription' | 'expiring-within'; readonly from: string };

/** A flag of a list command that narrows its rows (`licenses list --status unused`). */
export interface FilterSpec {
  /** `status` → `--status`. */
  readonly flag: string;
  readonly test: FilterTest;
  /** What the value is, for help (`--used-by <username>`); switches take none. */
  readonly value?: string;
  /** One line for help. */
  readonly description: string;
  /** The list whose first column names the values the flag takes (shell completion). */
  readonly completeFrom?: string;
}

/**
 * What running the operation does to the seller's data, which decides confirmation,
 * backups and retries:
 * - `read`: nothing; safe to retry.
 * - `write`: creates or changes records; retried only when refused as rate-limited.
 * - `delete-one`: removes one record; y/N on a terminal, `--yes` without one.
 * - `bulk`: touches many records (delete all, reset all, extend all, kill all...): the app
 *   name typed on a terminal, `--yes` without one, a backup first, `--dry-run` honoured.
 */
export type Effect = 'read' | 'write' | 'delete-one' | 'bulk';

export interface SellerOp {
  /** The `type` value on the wire, exact case. */
  readonly type: string;
  /** Other spellings recorded by the sources; the sandbox answers them the same way. */
  readonly typeAliases?: readonly string[];
  readonly group: SellerGroup;
  /**
   * The verb path under the group: `['list']`, `['create']`, `['hash', 'add']`.
   * Several operations may share a path when each has a distinct `selector`.
   */
  readonly command: readonly string[];
  /**
   * The boolean flag that picks this operation among those sharing `command`:
   * `licenses delete --all` → `delalllicenses`, `--used` → `delused`. The op without a
   * selector is the default for that path.
   */
  readonly selector?: string;
  /** One line, imperative, for help and the catalog listing. */
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  readonly response: ResponseSpec;
  readonly effect: Effect;
  /**
   * For `bulk` (and `delete-one` where useful): the `type` of the list operation whose
   * records this touches, exported to a backup file before the change.
   */
  readonly backupFrom?: string;
  /**
   * Parameters this entry always sends as given, e.g. `{ user: 'all' }` for the `--all`
   * variants of `extend`, `subtract` and `setvar` (same wire type, many records).
   */
  readonly fixedParams?: Readonly<Record<string, string>>;
  /** For a `bulk` op with no list to back up from: the sentence the CLI shows instead. */
  readonly noBackupReason?: string;
  /** A list operation's filters: flags of its command, applied to the rows kactl reads. */
  readonly filters?: readonly FilterSpec[];
  /** Accepts `format=text` (plain text answer) as the protocol page records. */
  readonly textFormat?: boolean;
  /** A full example command line shown in help, starting with `kactl`. */
  readonly example: string;
  /** Where the operation's facts come from (docs/protocol/seller-api.md legend: E, D, C). */
  readonly source: 'E' | 'D' | 'C';
}
