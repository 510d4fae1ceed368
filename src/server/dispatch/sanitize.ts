/**
 * The real server's input normalisation (docs/protocol/client-api.md §1.2): trim, strip HTML/PHP tags, and
 * an empty result means "absent". `"0"` survives. Handlers see these values through
 * `Params.get`; `Params.raw` gives the value as sent, for the few parameters the protocol
 * passes raw (the client webhook `body`).
 */

/** PHP's trim(): space, tab, newline, carriage return, NUL, vertical tab. */
const TRIMMED = new Set([' ', '\t', '\n', '\r', '\0', '\v']);

export function phpTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && TRIMMED.has(value.charAt(start))) start++;
  while (end > start && TRIMMED.has(value.charAt(end - 1))) end--;
  return value.slice(start, end);
}

/**
 * An approximation of PHP's strip_tags(): removes `<...>` tags (quotes inside a tag may hold
 * `>`), `<!-- -->` comments and `<? ?>` blocks; an unclosed tag removes the rest of the text.
 * A `<` followed by whitespace or at the end is kept, as PHP keeps it (`a < b`).
 */
export function stripTags(value: string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const ch = value.charAt(i);
    if (ch !== '<') {
      out += ch;
      i++;
      continue;
    }
    const next = value.charAt(i + 1);
    if (next === '' || /\s/.test(next)) {
      out += ch;
      i++;
      continue;
    }
    if (value.startsWith('<!--', i)) {
      const end = value.indexOf('-->', i + 4);
      i = end < 0 ? value.length : end + 3;
      continue;
    }
    let j = i + 1;
    let quote = '';
    for (; j < value.length; j++) {
      const c = value.charAt(j);
      if (quote !== '') {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '>') {
        break;
      }
    }
    i = j + 1;
  }
  return out;
}

/** `strip_tags(trim(value))`; undefined when that leaves nothing. */
export function sanitize(value: string): string | undefined {
  const cleaned = stripTags(phpTrim(value));
  return cleaned === '' ? undefined : cleaned;
}
