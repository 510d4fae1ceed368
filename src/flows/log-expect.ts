/**
 * `expect_log:` in a flow step: the sandbox's request inspector (`kactl sandbox logs`) must hold
 * a request of that step whose record matches, e.g.
 * `expect_log: { type: login, success: false, reason: /HWID mismatch/ }`. On a step with an
 * action, "that step" is the requests the action sent; alone, the requests of the step before.
 * Values match as `expect:` values do (text, /regex/flags, numbers and booleans as text).
 */
import type { InProcessResult } from './run-kactl.js';
import { firstLine, mismatch, show, valueAt } from './values.js';

type Kactl = (argv: string[]) => Promise<InProcessResult>;
type Row = Record<string, unknown>;

async function readRecords(kactl: Kactl, argv: string[]): Promise<Row[]> {
  const result = await kactl(['sandbox', 'logs', '-o', 'json', ...argv]);
  if (result.code !== 0) throw new Error(`the sandbox's request log could not be read: ${firstLine(result.stderr)}`);
  const records = JSON.parse(result.stdout) as unknown;
  if (!Array.isArray(records)) throw new Error("the sandbox's request log came back in an unexpected shape");
  return records as Row[];
}

/** The id of the newest record: a step's requests are the records after it. */
export async function logMark(kactl: Kactl): Promise<number> {
  const [last] = await readRecords(kactl, ['--limit', '1']);
  return typeof last?.id === 'number' ? last.id : 0;
}

/** What is wrong: nothing when a record after `mark` matches every expectation. */
export async function logFailures(kactl: Kactl, mark: number, expected: Row): Promise<string[]> {
  const records = await readRecords(kactl, ['--after', String(mark), '--limit', '10000']);
  if (records.length === 0) return ['expect_log: the sandbox recorded no request of this step'];
  const matching = records.find((record) => Object.entries(expected).every(([key, value]) => mismatch(value, valueAt(record, key)) === undefined));
  if (matching !== undefined) return [];
  const seen = records.map((record) => `${show(record.type)} (success ${show(record.success)}, reason ${show(record.reason)})`);
  return [`expect_log: no request of this step matched ${show(expected)}; it sent ${seen.join('; ')}`];
}
