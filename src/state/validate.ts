/**
 * A validator for the subset of JSON Schema that schema.ts uses (type, properties, required,
 * additionalProperties, items, enum, pattern, minimum). Each problem names the path in the
 * document and what was expected, so the loader can point at the line.
 */
import type { JsonSchema } from './schema.js';

export type DocPath = readonly (string | number)[];

export interface Problem {
  path: DocPath;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

export function validate(value: unknown, schema: JsonSchema, path: DocPath = []): Problem[] {
  const problems: Problem[] = [];
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((t) => typeMatches(value, t))) return [{ path, message: `expected ${types.join(' or ')}, found ${typeOf(value)}` }];
  }
  if (schema.enum && !schema.enum.includes(value as string)) problems.push({ path, message: `expected one of ${schema.enum.join(', ')}` });
  if (schema.pattern && typeof value === 'string' && !new RegExp(schema.pattern).test(value)) {
    problems.push({ path, message: `"${value}" is not valid here${schema.description ? ` (${schema.description})` : ''}` });
  }
  if (schema.minimum !== undefined && typeof value === 'number' && value < schema.minimum) problems.push({ path, message: `expected at least ${schema.minimum}` });
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => problems.push(...validate(item, schema.items!, [...path, index])));
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) problems.push({ path, message: `"${name}" is required` });
    for (const [name, item] of Object.entries(object)) {
      const known = schema.properties?.[name];
      if (known) problems.push(...validate(item, known, [...path, name]));
      else if (schema.additionalProperties === false) {
        const allowed = Object.keys(schema.properties ?? {});
        problems.push({ path: [...path, name], message: `unknown key "${name}" (expected ${allowed.join(', ')})` });
      } else if (typeof schema.additionalProperties === 'object') problems.push(...validate(item, schema.additionalProperties, [...path, name]));
    }
  }
  return problems;
}
