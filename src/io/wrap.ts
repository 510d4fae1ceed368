/**
 * Word wrapping for what kactl writes to people: help topics and the notes, warnings and hints
 * on stderr. Breaks only at spaces; a word longer than the line (a URL, a path) stays whole on a
 * line of its own, since a broken one can no longer be copied. Pure: text in, lines out.
 */

/** Characters a line takes on screen: code points (the text carries no control characters). */
function widthOf(text: string): number {
  return [...text].length;
}

/**
 * `text` as lines of at most `width` characters: the first starts with `first`, the others with
 * `rest` (a hanging indent). Runs of spaces between words become one.
 */
export function wrapWords(text: string, width: number, first = '', rest = first): string[] {
  const lines: string[] = [];
  let current = '';
  let indent = first;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (current !== '' && widthOf(indent) + widthOf(current) + 1 + widthOf(word) > width) {
      lines.push(indent + current);
      indent = rest;
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(indent + current);
  return lines;
}

/**
 * A message of one or more lines wrapped to `width`: each line keeps its own leading spaces
 * (an indented list stays indented), and its continuation lines line up under its first word.
 * `prefixWidth` is what the caller puts before the first line (`warning: `): the first line has
 * that much less room, and continuation lines of the first line are indented by it.
 */
export function wrapMessage(message: string, width: number, prefixWidth = 0): string[] {
  return message.split('\n').flatMap((line, index) => {
    const lead = /^\s*/.exec(line)![0];
    const offset = index === 0 ? prefixWidth : 0;
    if (widthOf(line) + offset <= width) return [line];
    const hanging = ' '.repeat(offset) + lead;
    const wrapped = wrapWords(line, width, ' '.repeat(offset) + lead, hanging);
    // The prefix is the caller's to write: the first line goes back without its room.
    return wrapped.map((l, i) => (i === 0 ? l.slice(offset) : l));
  });
}
