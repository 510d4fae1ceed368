/**
 * The client API described once, as data, the way the seller catalog describes the seller API
 * (src/api/seller-catalog/types.ts). One record per wire `type` drives:
 *  - the caller (src/api/client-api.ts): the version a type goes to, whether it may be retried
 *    after a dropped connection, the fields a success must carry, the answers it must read
 *    specially;
 *  - the commands' reading of answers that lie about success (src/commands/client/answers.ts);
 *  - the checks that hold docs/operations.md and docs/protocol/client-api.md to it
 *    (test/unit/client-catalog.test.ts), and the sandbox's client handlers
 *    (test/server/client-registry.test.ts).
 * A type no record names (`kactl client call anything`) is sent to 1.3, never retried, and its
 * success is taken as it comes.
 */
import type { ExpectedField } from '../answer.js';

/** Client API versions kactl speaks. */
export type ClientApiVersion = '1.3' | '1.2';

/**
 * What a repeat of the call would do, which decides retries after a dropped connection:
 * - `read`: nothing a repeat could double; retried.
 * - `write`: may change something twice; retried only when refused as rate-limited.
 */
export type ClientEffect = 'read' | 'write';

export interface ClientParam {
  /** The parameter's name on the wire, exact case. */
  readonly wire: string;
  /** One line: what the value is. */
  readonly description: string;
  /**
   * Never shown in full: src/api/redact.ts must list the name, so `--verbose` and error
   * excerpts mask it (test/unit/client-catalog.test.ts holds the two together).
   */
  readonly secret?: true;
}

/**
 * What a `success:true` answer must carry before anything acts on it (docs/design.md, "HTTP
 * status of a failure"): a signed answer proves who wrote it, not which request it answers, so a
 * `check` answer sent back to a `login` must not count as a login. A type whose success has no
 * field to check says why instead.
 */
export type SuccessShape = { readonly fields: readonly ExpectedField[] } | { readonly unchecked: string };

/** Answers of this type that the wire gets wrong, and how kactl reads them. */
export interface ClientQuirks {
  /**
   * A `success:true` answer whose `message` matches is really a refusal (the 1.2 source's input
   * errors, docs/protocol/client-api.md §4.13, §4.23): the commands exit 1 on it.
   */
  readonly refusalAsSuccess?: RegExp;
  /**
   * The server may answer with an empty, unsigned body (the 1.2 server always does, §1.6): taken
   * as a plain success.
   */
  readonly emptyAnswer?: true;
  /** The answer can be far larger than others (a file as hex): the body cap is raised for it. */
  readonly largeAnswer?: true;
}

export interface ClientOp {
  /** The `type` value on the wire, exact case. */
  readonly type: string;
  /**
   * The `kactl client` command that sends it (`['2fa', 'enable']`; a last word may be the
   * command's argument, as `magic-link wait`), so a flows step may name it either way. None
   * when no command sends it alone (loginEmail is `client login --email`). Checked against the
   * command tree by test/unit/client-catalog.test.ts.
   */
  readonly command?: readonly string[];
  /**
   * Where kactl sends it when the profile leaves `api` unset: 1.2 for the types the interface
   * specification describes only under /api/1.2/ (chat and user variables), else 1.3.
   */
  readonly api: ClientApiVersion;
  /**
   * The genuine server answers it on 1.3 only (its protocol section says "(1.3 only)"); the
   * sandbox answers it on both.
   */
  readonly onlyOn13?: true;
  /**
   * What kactl's commands send besides `type`, `name`, `ownerid` and `sessionid` (the table of
   * docs/protocol/client-api.md §4.30 lists the same names).
   */
  readonly params: readonly ClientParam[];
  readonly effect: ClientEffect;
  readonly success: SuccessShape;
  readonly quirks?: ClientQuirks;
  /**
   * Where the type is written down: its section of docs/protocol/client-api.md (`§4.9`), and its
   * numbered row in docs/operations.md when the interface specification names it (a type beyond
   * the specification has no number: its row is under "Beyond the specification"). The docs are
   * checked against both.
   */
  readonly docs: { readonly row?: number; readonly section: string };
}
