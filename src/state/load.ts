/**
 * Reads a state or flows file (YAML, or JSON which is YAML too), checks it against its schema
 * and refuses it with the file, the line and what was expected.
 *
 * The environment reaches a file only where the file asks for it by name: `!env NAME` is the
 * whole value of NAME (unset is an error, never an empty string). A `${NAME}` inside a state
 * body's text is refused rather than read: state files carry text that end users wrote (user
 * variables, notes), and `export` followed by `apply` must never turn their `${KACTL_SELLER_KEY}`
 * into the seller's key. In a state body `$$` stands for `$`, which is how `export` writes
 * every `$` (escapeDollars). Values read from the environment are marked (envName) so that no
 * plan prints them.
 *
 * Files are capped (MAX_FILE_BYTES) because parsing is synchronous and costs about 85 bytes of
 * memory per byte of YAML: a huge file would hold the process for minutes, deaf to Ctrl-C.
 */
import fs from 'node:fs';
import { LineCounter, parseDocument, isAlias, isMap, isNode, isScalar, visit } from 'yaml';
import type { Document, ScalarTag } from 'yaml';
import { UsageError } from '../errors.js';
import type { EnvRecord } from '../env.js';
import type { JsonSchema } from './schema.js';
import { validate } from './validate.js';
import { durationHint, parseDuration } from '../util/duration.js';
import type { DocPath } from './validate.js';

export const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface LoadedFile {
  file: string;
  value: Record<string, unknown>;
  /** The line (1-based) of the node at `path`, or of its nearest parent that has one. */
  lineOf(path: DocPath): number;
}

export interface LoadOptions {
  /** Where `!env NAME` reads; a file that uses `!env` without one is refused. */
  env?: EnvRecord;
  /** Paths whose values are state bodies (`[[]]` for a state file, `[['seed']]` for flows). */
  stateAt?: readonly DocPath[];
}

/** `!env NAME` as parsed, before the environment is read. */
class EnvRef {
  constructor(readonly name: string) {}
}

const ENV_TAG: ScalarTag = {
  tag: '!env',
  resolve(name: string, onError: (message: string) => void) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) onError(`!env needs the name of an environment variable, not "${name}"`);
    return new EnvRef(name);
  },
};

/** On an object that holds values read from the environment: field → variable name. */
const FROM_ENV = Symbol('kactl.fromEnv');

/**
 * `row` with its fields named by `aliases` (alias → name) renamed, keeping which values came from
 * the environment (so a plan still shows `(from $NAME)`, never the value).
 */
export function renameFields(row: Record<string, unknown>, aliases: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [field, value] of Object.entries(row)) {
    const name = Object.hasOwn(aliases, field) ? aliases[field]! : field;
    setOwn(out, name, value);
    const variable = envName(row, field);
    if (variable !== undefined) names[name] = variable;
  }
  if (Object.keys(names).length > 0) Object.defineProperty(out, FROM_ENV, { value: names, enumerable: true });
  return out;
}

/** The variable `row[field]` was read from (`!env NAME`), or undefined when the file wrote it. */
export function envName(row: object, field: string | number): string | undefined {
  const names = (row as { [FROM_ENV]?: Record<string, string> })[FROM_ENV];
  return names !== undefined && Object.hasOwn(names, String(field)) ? names[String(field)] : undefined;
}

function describePath(path: DocPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('') || 'the top level';
}

function isUnder(path: DocPath, roots: readonly DocPath[]): boolean {
  return roots.some((root) => root.length <= path.length && root.every((part, index) => path[index] === part));
}

/** `$$` → `$`; a `${` that is not escaped is refused (it would have read the environment once). */
function unescapeDollars(text: string, refuse: (name: string) => never): string {
  return text.replace(/\$(\$|\{([^}]*)\}?)/g, (match, next: string, name: string | undefined) => (next === '$' ? '$' : refuse(name ?? match)));
}

/** Every `$` written as `$$`, in every text of a state body: what `export` prints, so `apply` reads it back as it was. */
export function escapeDollars(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('$', '$$$$');
  if (Array.isArray(value)) return value.map(escapeDollars);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, escapeDollars(item)]));
  return value;
}

function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  // defineProperty, so a key named __proto__ stays a plain key (validation then refuses it).
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

interface Resolver {
  env: EnvRecord | undefined;
  stateAt: readonly DocPath[];
  fail(path: DocPath, message: string): never;
}

function resolveValues(value: unknown, path: DocPath, r: Resolver): { value: unknown; env?: string } {
  if (value instanceof EnvRef) {
    const found = r.env?.[value.name];
    if (found === undefined) r.fail(path, `!env ${value.name}: ${value.name} is not set in the environment.`);
    return { value: found, env: value.name };
  }
  if (typeof value === 'string') {
    if (!isUnder(path, r.stateAt)) return { value };
    return {
      value: unescapeDollars(value, (name) =>
        r.fail(path, `"\${${name}}" is not read from the environment: write the whole value as !env ${/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : 'NAME'}, or $\${…} for the text itself.`),
      ),
    };
  }
  if (value === null || typeof value !== 'object') return { value };
  const out = (Array.isArray(value) ? [] : {}) as Record<string | number, unknown>;
  const names: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const index = Array.isArray(value) ? Number(key) : key;
    const resolved = resolveValues(item, [...path, index], r);
    setOwn(out, index, resolved.value);
    if (resolved.env !== undefined) names[key] = resolved.env;
  }
  if (Object.keys(names).length > 0) Object.defineProperty(out, FROM_ENV, { value: names, enumerable: true });
  return { value: out };
}

/** The line of the first alias: where an alias bomb starts. */
function firstAliasLine(doc: Document, lines: LineCounter): number {
  let line = 1;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) line = lines.linePos(node.range[0]).line;
      return visit.BREAK;
    },
  });
  return line;
}

export function parseText(file: string, text: string, schema: JsonSchema, options: LoadOptions = {}): LoadedFile {
  const lines = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, customTags: [ENV_TAG] });
  const firstError = doc.errors[0] ?? doc.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED');
  if (firstError) {
    const line = lines.linePos(firstError.pos[0]).line;
    throw new UsageError(`${file}, line ${line}: not valid YAML or JSON: ${firstError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const lineOf = (path: DocPath): number => {
    // A mapping entry is pointed at by its key, the line a reader looks for.
    const parent = path.length > 0 ? doc.getIn(path.slice(0, -1), true) : undefined;
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path.at(-1));
      if (pair && isNode(pair.key) && pair.key.range) return lines.linePos(pair.key.range[0]).line;
    }
    for (let length = path.length; length >= 0; length--) {
      const node = doc.getIn(path.slice(0, length), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return 1;
  };
  let parsed: unknown;
  try {
    parsed = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    // yaml refuses an alias bomb here (a ReferenceError), after parsing succeeded.
    throw new UsageError(`${file}, line ${firstAliasLine(doc, lines)}: not valid YAML or JSON: ${(error as Error).message}.`);
  }
  const { value } = resolveValues(parsed, [], {
    env: options.env,
    stateAt: options.stateAt ?? [],
    fail: (path, message) => {
      throw new UsageError(`${file}, line ${lineOf(path)}: ${message}`);
    },
  });
  const problems = validate(value, schema);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'})` : '';
    throw new UsageError(`${file}, line ${lineOf(first.path)}: ${describePath(first.path)}: ${first.message}${more}.`);
  }
  return { file, value: value as Record<string, unknown>, lineOf };
}

/**
 * Whether `text` reads as a state file: YAML or JSON whose top level is a mapping of state
 * sections only (`sections`), so that a command given one by mistake can say which command takes it.
 */
export function isStateText(text: string, sections: readonly string[]): boolean {
  const doc = parseDocument(text, { uniqueKeys: true, customTags: [ENV_TAG] });
  if (doc.errors.length > 0) return false;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => sections.includes(key));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export function loadFile(file: string, schema: JsonSchema, options: LoadOptions = {}): LoadedFile {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_FILE_BYTES) throw new UsageError(`${file} is ${megabytes(size)}; kactl reads state and flows files of at most ${MAX_FILE_BYTES / 1024 / 1024} MB (split it into several files).`);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  // A file that grew meanwhile, or a pipe or device whose size stat does not tell.
  if (text.length > MAX_FILE_BYTES) throw new UsageError(`${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB, the most kactl reads in a state or flows file (split it into several files).`);
  return parseText(file, text, schema, options);
}

/** A duration of a state or flows file (`2w`, `30d`, `12h`, `90m`, `45s`, or a plain number of days) → days. */
export function durationDays(value: string | number): number {
  const seconds = parseDuration(value, 'days');
  if (seconds === undefined) throw new UsageError(`${JSON.stringify(value)} is not a duration: ${durationHint('days')}`);
  return seconds / 86_400;
}

/** A duration in whole seconds. */
export function durationSeconds(value: string | number): number {
  return Math.round(durationDays(value) * 86_400);
}
