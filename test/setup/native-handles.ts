/**
 * Run by vitest before every test file (vitest.config.ts `setupFiles`): every statement a test
 * prepares itself (`store.db.prepare(…)` to change a row behind the sandbox's back, a raw
 * connection to an old store) is kept for the life of the worker, as the store keeps its own
 * (src/server/store/native-handles.ts says why: on Node ≥ 24.19 the garbage collector destroying
 * a better-sqlite3 12 object aborts the process). The unit and server files share one worker
 * (`isolate: false`), so a statement one file left to the collector could abort the worker while
 * a later file ran. A raw `new Database(…)` in a test is passed to `retain()` where it is made.
 */
import Database from 'better-sqlite3';
import { retain } from '../../src/server/store/native-handles.js';

const PATCHED = Symbol.for('kactl.test.retainStatements');
const proto = Database.prototype as unknown as Record<PropertyKey, unknown> & { prepare: (...args: unknown[]) => object };
if (proto[PATCHED] !== true) {
  const prepare = proto.prepare;
  proto.prepare = function retainedPrepare(this: unknown, ...args: unknown[]): object {
    return retain(prepare.apply(this, args));
  };
  proto[PATCHED] = true;
}
