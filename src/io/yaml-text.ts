/**
 * `-o yaml`: a JSON value as a YAML document (block style, YAML 1.2), what `--json` prints in
 * the other syntax. Written here rather than with the `yaml` package, which is heavy to load
 * (docs/architecture.md, "Cold start") for what JSON values need: scalars, lists and maps.
 * Strings that could read as anything else (a number, `true`, `null`, `yes`, a date, a
 * string with `: ` or ` #`, indicators, leading or trailing spaces) are double-quoted, with
 * JSON's escapes, which YAML's double-quoted strings share; so are the characters YAML does not
 * allow bare (DEL, C1 controls, line and paragraph separators).
 */

/** Words a YAML 1.1 reader takes for a boolean or null; quoted so every reader keeps them strings. */
const RESERVED = /^(?:true|false|yes|no|y|n|on|off|null|~)$/i;
/** What may stand bare: starts with a letter, digit, `_`, `/` or `.`; then no indicator that ends a plain scalar. */
const PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9_./@+\- ()]*$/;
/** Reads as a number, a special float or a timestamp. */
const NUMBER_LIKE = /^(?:[-+]?(?:\d|\.\d)|\.(?:inf|nan)$|\d{4}-\d\d-\d\d)/i;
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

function quoted(text: string): string {
  return JSON.stringify(text).replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A string as a YAML scalar: bare when nothing could misread it, else double-quoted. */
export function yamlString(text: string): string {
  const bare = text !== '' && PLAIN.test(text) && !text.endsWith(' ') && !RESERVED.test(text) && !NUMBER_LIKE.test(text);
  return bare ? text : quoted(text);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'bigint') return String(value);
  return yamlString(typeof value === 'string' ? value : JSON.stringify(value) ?? '');
}

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A list or map with entries: written on lines of its own under its key or dash. */
function isBlock(value: unknown): boolean {
  return (Array.isArray(value) && value.length > 0) || (isMap(value) && Object.values(value).some((v) => v !== undefined));
}

/** `value` as lines at `indent` (a block), or as the one scalar or empty collection it is. */
function lines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}[]`];
    return value.flatMap((item) => {
      // A map's first entry goes on the dash's line, its others under it.
      if (isMap(item) && isBlock(item)) {
        const [first = '', ...rest] = lines(item, `${indent}  `);
        return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
      }
      if (isBlock(item)) return [`${indent}-`, ...lines(item, `${indent}  `)];
      return [`${indent}- ${inline(item)}`];
    });
  }
  if (isMap(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([key, v]) => (isBlock(v) ? [`${indent}${yamlString(key)}:`, ...lines(v, `${indent}  `)] : [`${indent}${yamlString(key)}: ${inline(v)}`]));
  }
  return [`${indent}${scalar(value)}`];
}

/** A scalar or an empty collection, on the line of its key or dash. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return '[]';
  if (isMap(value)) return '{}';
  return scalar(value);
}

/** The YAML document of a JSON value, ending with a newline. */
export function toYaml(value: unknown): string {
  return `${lines(value, '').join('\n')}\n`;
}
