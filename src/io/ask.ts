/**
 * Getting a value from the user the right way: the flag if given, a prompt on a terminal,
 * otherwise stop at once (exit 2) naming the flag. Never hang waiting for input that can't come.
 */
import { CancelledError, InputRequiredError } from '../errors.js';
import type { IOStreams } from './streams.js';
import type { Prompter } from './prompter.js';
import type { Output } from './output.js';

/**
 * What asking needs, and no more: the streams, `--yes`, a prompt and a line on stderr. Commands
 * pass their Context, which has all of it; io/ sits below the Context and does not import it.
 */
export interface AskDeps {
  io: Pick<IOStreams, 'stdin' | 'isStdinTTY' | 'canPrompt' | 'noPromptReason'>;
  globals: { readonly yes?: boolean };
  prompter(): Promise<Prompter>;
  output: Pick<Output, 'note' | 'warn'>;
}

export interface AskOptions {
  /** What the flag gave, if anything. */
  value: string | undefined;
  /** The flag that supplies it, e.g. `--password` (named in the error without a terminal). */
  flag: string;
  /** Prompt label, e.g. `Password`. */
  label: string;
  /** Hidden input. */
  secret?: boolean;
  /** Another way to supply it without a terminal, e.g. `--password-stdin`. */
  alternative?: string;
  validate?: (value: string) => true | string;
}

export async function valueOrAsk(ctx: AskDeps, options: AskOptions): Promise<string> {
  if (options.value !== undefined && options.value !== '') {
    const verdict = options.validate?.(options.value) ?? true;
    if (verdict !== true) throw new InputRequiredError(`${options.flag}: ${verdict}`);
    return options.value;
  }
  if (!ctx.io.canPrompt()) {
    const alternative = options.alternative ? ` or ${options.alternative}` : '';
    throw new InputRequiredError(`Missing ${options.flag}${alternative} (${ctx.io.noPromptReason}).`);
  }
  const prompter = await ctx.prompter();
  const validate = (value: string): true | string => (value.trim() === '' ? `${options.label} can't be empty.` : (options.validate?.(value) ?? true));
  return options.secret ? prompter.password(`${options.label}:`, { validate }) : prompter.input(`${options.label}:`, { validate });
}

/** All of stdin as text, without the final newline (`--password-stdin`, `--seller-key-stdin`). */
export async function readStdinText(ctx: AskDeps, flag: string): Promise<string> {
  if (ctx.io.isStdinTTY) ctx.output.note(`Reading ${flag} from stdin; end with Ctrl-D.`);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const text = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (text === '') throw new InputRequiredError(`${flag} was given but stdin was empty.`);
  return text;
}

/**
 * y/N before changing one record. With `--yes` it passes; without a terminal it refuses
 * (exit 2) and says to add `--yes`.
 */
export async function confirmOne(ctx: AskDeps, question: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.io.canPrompt()) throw new InputRequiredError(`${question.replace(/\?$/, '')}: add --yes to confirm (${ctx.io.noPromptReason}).`);
  const ok = await (await ctx.prompter()).confirm(question, false);
  if (!ok) throw new CancelledError();
}

/**
 * For changes to many records: the user types `expected` (the app name). `--yes` passes;
 * without a terminal it refuses (exit 2). `what` is a sentence (the warning shown above the
 * prompt); the refusal puts the request to add --yes after it, as confirmOne does.
 */
export async function confirmTyped(ctx: AskDeps, what: string, expected: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.io.canPrompt()) throw new InputRequiredError(`${what.replace(/[.?]$/, '')}: add --yes to confirm (${ctx.io.noPromptReason}).`);
  ctx.output.warn(what);
  const answer = await (await ctx.prompter()).input(`Type the application name (${expected}) to confirm:`);
  if (answer.trim() !== expected) throw new CancelledError(`"${answer.trim()}" is not "${expected}"; nothing was changed.`);
}
