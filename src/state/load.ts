/**
 * Reads a state or flows file (YAML, or JSON which is YAML too), checks it against its schema
 * and refuses it with the file, the line and what was expected. `${VAR}` in a state file reads
 * the environment; an unset variable is an error, never an empty string.
 */
import fs from 'node:fs';
import { LineCounter, parseDocument, isMap, isNode, isScalar } from 'yaml';
import type { Document } from 'yaml';
import { UsageError } from '../errors.js';
import type { EnvRecord } from '../env.js';
import type { JsonSchema } from './schema.js';
import { validate } from './validate.js';
import type { DocPath } from './validate.js';

export interface LoadedFile {
  file: string;
  value: Record<string, unknown>;
  /** The line (1-based) of the node at `path`, or of its nearest parent that has one. */
  lineOf(path: DocPath): number;
}

function describePath(path: DocPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('') || 'the top level';
}

export function parseText(file: string, text: string, schema: JsonSchema): LoadedFile {
  const lines = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError) {
    const line = lines.linePos(firstError.pos[0]).line;
    throw new UsageError(`${file}, line ${line}: not valid YAML or JSON: ${firstError.message.split('\n')[0]}`);
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
  const value: unknown = doc.toJS() ?? {};
  const problems = validate(value, schema);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'})` : '';
    throw new UsageError(`${file}, line ${lineOf(first.path)}: ${describePath(first.path)}: ${first.message}${more}.`);
  }
  return { file, value: value as Record<string, unknown>, lineOf };
}

export function loadFile(file: string, schema: JsonSchema): LoadedFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return parseText(file, text, schema);
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` with `lookup(NAME)` in every string; `missing` explains one that has no value. */
export function substitute(value: unknown, lookup: (name: string) => string | undefined, missing: (name: string, path: DocPath) => never, path: DocPath = []): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (_match, name: string) => lookup(name) ?? missing(name, path));
  }
  if (Array.isArray(value)) return value.map((item, index) => substitute(item, lookup, missing, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, lookup, missing, [...path, key])]));
  }
  return value;
}

/** A state body with `${VAR}` read from the environment. */
export function withEnvironment(loaded: LoadedFile, value: unknown, env: EnvRecord, base: DocPath = []): Record<string, unknown> {
  return substitute(value, (name) => env[name], (name, path) => {
    throw new UsageError(`${loaded.file}, line ${loaded.lineOf([...base, ...path])}: \${${name}} is not set in the environment.`);
  }) as Record<string, unknown>;
}

/** `30d`, `12h`, `90m`, `45s` or a plain number of days → days. */
export function durationDays(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^([0-9]+(?:\.[0-9]+)?)([dhms]?)$/.exec(value.trim());
  if (!match) throw new UsageError(`"${value}" is not a duration (30d, 12h, 90m, 45s or days).`);
  const amount = Number(match[1]);
  const perDay = { d: 1, '': 1, h: 24, m: 1440, s: 86_400 }[match[2] as 'd' | 'h' | 'm' | 's' | ''];
  return amount / perDay;
}
