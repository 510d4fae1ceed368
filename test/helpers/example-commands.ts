/**
 * The kactl command lines inside an example, as a shell would split them: `kactl client init &&
 * kactl client login --username alice`, `KEY=$(kactl licenses create --amount 1)`, `kactl
 * sandbox exec -- sh -c 'kactl client init && …'` each give their `kactl` argv (words after
 * `kactl`), found inside `$(…)`, `<(…)`, `sh -c '…'` and after `sandbox exec --` too. Quotes,
 * escapes, comments, redirections, pipes and variable assignments are read as bash reads them;
 * a `$VAR` stays as written (one word, like the value it stands for).
 */

/** The argv (after `kactl`) of every kactl command in `line`. */
export function kactlCommands(line: string): string[][] {
  const found: string[][] = [];
  for (const simple of simpleCommands(line, found)) collect(simple, found);
  return found;
}

const OPERATORS = ['&&', '||', ';;', '|', ';', '&'];
const REDIRECT = /^(>>|>&|<&|>|<)$/;

/** Splits into simple commands (argv lists); the text of every `$(…)` / `<(…)` is read too, into `found`. */
function simpleCommands(line: string, found: string[][]): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  const end = (): void => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (/\s/.test(ch)) {
      end();
      continue;
    }
    if (ch === '#' && word === undefined) break;
    if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
      continue;
    }
    if (ch === '"') {
      let text = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length) text += line[++i];
        else if (line.startsWith('$(', i)) {
          const inner = balanced(line, i + 1);
          for (const simple of simpleCommands(inner.text, found)) collect(simple, found);
          text += '$(…)';
          i = inner.end;
        } else text += line[i];
      }
      word = (word ?? '') + text;
      continue;
    }
    if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
      continue;
    }
    if ((ch === '$' || ch === '<') && line[i + 1] === '(') {
      const inner = balanced(line, i + 1);
      for (const simple of simpleCommands(inner.text, found)) collect(simple, found);
      word = (word ?? '') + '$(…)';
      i = inner.end;
      continue;
    }
    const operator = OPERATORS.find((op) => line.startsWith(op, i));
    if (operator !== undefined) {
      end();
      commands.push([]);
      i += operator.length - 1;
      continue;
    }
    if (ch === '>' || ch === '<') {
      // A redirection: its target is not an argument, nor the fd number before it (`2>`).
      if (word !== undefined && /^\d+$/.test(word)) word = undefined;
      else end();
      const op = /^(>>|>&|<&|>|<)/.exec(line.slice(i))![1]!;
      i += op.length - 1;
      commands.at(-1)!.push(op);
      continue;
    }
    word = (word ?? '') + ch;
  }
  end();
  return commands.map(withoutRedirections).filter((argv) => argv.length > 0);
}

/** The text inside the parentheses that open at `open`, and where they close. */
function balanced(line: string, open: number): { text: string; end: number } {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return { text: line.slice(open + 1, i), end: i };
  }
  throw new Error(`unclosed ( in: ${line}`);
}

/** `> file`, `< in`, `>&2`: gone with their targets. */
function withoutRedirections(argv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (REDIRECT.test(argv[i]!)) i++;
    else kept.push(argv[i]!);
  }
  return kept;
}

/** Adds `argv`'s kactl command (past assignments, `sudo`, `npx`, `exec`), and the ones it runs itself. */
function collect(argv: readonly string[], found: string[][]): void {
  let at = 0;
  while (at < argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[at]!) || ['sudo', 'npx', 'exec', 'time', '!'].includes(argv[at]!))) at++;
  const program = argv[at];
  const rest = argv.slice(at + 1);
  if (program === 'kactl') {
    found.push([...rest]);
    // `kactl sandbox exec … -- COMMAND`: COMMAND is a command line of its own.
    const dashes = rest.indexOf('--');
    if (rest[0] === 'sandbox' && rest[1] === 'exec' && dashes >= 0) collect(rest.slice(dashes + 1), found);
  } else if ((program === 'sh' || program === 'bash') && rest[0] === '-c' && rest[1] !== undefined) {
    for (const simple of simpleCommands(rest[1], found)) collect(simple, found);
  }
}
