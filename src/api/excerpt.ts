/**
 * Short, printable excerpts of what a server sent, for one-sentence error messages.
 * Control characters could rewrite the user's terminal (ESC sequences), so they are dropped;
 * whitespace runs collapse so an HTML page fits on one line.
 */
import type { TextRedactor } from './redact.js';

/** Default excerpt length in characters. */
export const EXCERPT_LENGTH = 80;

/** `text` on one line, without control characters, cut to `max` characters with `…`, redacted. */
export function excerpt(text: string, options: { max?: number; redact?: TextRedactor } = {}): string {
  const max = options.max ?? EXCERPT_LENGTH;
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  let line = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '').replace(/\s+/g, ' ').trim();
  if (options.redact) line = options.redact(line);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The `<title>` of an HTML page, if it has one (a better excerpt than the page's first bytes). */
export function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = match?.[1]?.replace(/\s+/g, ' ').trim();
  return title === undefined || title === '' ? undefined : title;
}

/** `1.5 s`, `10 s`, `0.2 s`: a duration in ms as seconds, for messages. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
