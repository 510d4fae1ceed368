/**
 * `--jq EXPR`: jq expressions run by jq itself (jq 1.8, compiled to WebAssembly by the jq-wasm
 * package), so an expression means here what it means in the jq manual; no `jq` binary is run.
 * The module is loaded only when `--jq` is given (cold start: test/unit/cold-start.test.ts).
 * It runs without a file system or environment of its own: `input_filename`, `$ENV` and module
 * imports see nothing of this machine.
 *
 * A mistake in the expression, found before the request is sent (compile errors) or while it
 * runs on the answer (`.a` of an array), is a usage error: exit 2, jq's own sentence.
 */
import { UsageError } from '../errors.js';

interface JqHandle {
  raw(input: unknown, query: string, flags?: string[]): { stdout: string; stderr: string; exitCode: number };
}

let handle: Promise<JqHandle> | undefined;

function jq(): Promise<JqHandle> {
  handle ??= import('jq-wasm').then((module) => module.loadJq());
  return handle;
}

/** jq's exit code for an expression that does not compile. */
const COMPILE_ERROR = 3;

/** jq's message as one sentence: `jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 4:` → `--jq: syntax error, unexpected end of file (line 1, column 4).` */
export function jqSentence(stderr: string): string {
  const first = stderr.split('\n').find((line) => line.trim() !== '') ?? 'the expression failed';
  const text = first
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .replace(/ at <top-level>, (line \d+, column \d+):?$/, ' ($1)')
    .replace(/:$/, '');
  return `--jq: ${text.replace(/\.$/, '')}.`;
}

/** Refuses an expression jq cannot compile, before anything is sent. */
export async function checkJq(expression: string): Promise<void> {
  const result = (await jq()).raw(null, expression, ['-n']);
  if (result.exitCode === COMPILE_ERROR) throw new UsageError(jqSentence(result.stderr));
}

/** What `jq -r EXPR` prints for `value`: strings bare, everything else as indented JSON, one result a line. */
export async function runJq(value: unknown, expression: string): Promise<string> {
  // A string is handed to jq as JSON text, so it is encoded first (jq-wasm takes a string as JSON).
  const result = (await jq()).raw(JSON.stringify(value), expression, ['-r']);
  if (result.exitCode !== 0 && result.stderr !== '') throw new UsageError(jqSentence(result.stderr));
  return result.stdout === '' ? '' : `${result.stdout.replace(/\n$/, '')}\n`;
}
