/**
 * A validator for the subset of JSON Schema that schema.ts uses (type, properties, required,
 * additionalProperties, items, enum, pattern, minimum, exclusiveMinimum, maximum, maxLength).
 * Each problem names the path in the document and what was expected, so the loader can point
 * at the line.
 *
 * Names are looked up as own properties only: a key called `constructor` or `__proto__` is an
 * unknown key like any other, never a match for something every object inherits.
 */
import { ownValue } from '../util/own.js';
import type { JsonSchema } from './schema.js';

export type DocPath = readonly (string | number)[];

export interface Problem {
  path: DocPath;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    // YAML's .nan and .inf are numbers to JavaScript, and nothing a state file can mean.
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function numberProblems(value: number, schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.minimum !== undefined && value < schema.minimum) problems.push(`expected at least ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) problems.push(`expected more than ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) problems.push(`expected at most ${schema.maximum}`);
  return problems;
}

export function validate(value: unknown, schema: JsonSchema, path: DocPath = []): Problem[] {
  const problems: Problem[] = [];
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((t) => typeMatches(value, t))) return [{ path, message: `expected ${types.join(' or ')}, found ${typeOf(value)}` }];
  }
  if (schema.enum && !schema.enum.includes(value as string)) problems.push({ path, message: `expected one of ${schema.enum.join(', ')}` });
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
      problems.push({ path, message: `"${value}" is not valid here${schema.description ? ` (${schema.description})` : ''}` });
    }
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) problems.push({ path, message: `at most ${schema.maxLength} characters` });
  }
  if (typeof value === 'number') for (const message of numberProblems(value, schema)) problems.push({ path, message });
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => problems.push(...validate(item, schema.items!, [...path, index])));
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!Object.hasOwn(object, name)) problems.push({ path, message: `"${name}" is required` });
    for (const [name, item] of Object.entries(object)) {
      const known = schema.properties === undefined ? undefined : ownValue(schema.properties, name);
      if (known) problems.push(...validate(item, known, [...path, name]));
      else if (schema.additionalProperties === false) {
        const allowed = Object.keys(schema.properties ?? {});
        problems.push({ path: [...path, name], message: `unknown key "${name}" (expected ${allowed.join(', ')})` });
      } else if (typeof schema.additionalProperties === 'object') problems.push(...validate(item, schema.additionalProperties, [...path, name]));
    }
  }
  return problems;
}
