/**
 * A narrow interface over @inquirer/prompts (loaded only when a prompt is really needed).
 * Prompts read stdin and draw on stderr, so stdout stays clean for data. Ctrl-C on a prompt
 * becomes InterruptedError (exit 130), never a stack trace.
 */
import type { IOStreams } from './streams.js';
import { InterruptedError } from '../errors.js';

export interface Prompter {
  input(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
}

function isPromptExit(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isPromptExit(error)) throw new InterruptedError();
    throw error;
  }
}

export async function createPrompter(io: IOStreams, signal: AbortSignal): Promise<Prompter> {
  const prompts = await import('@inquirer/prompts');
  const context = { input: io.stdin, output: io.stderr, signal, clearPromptOnDone: false };
  return {
    input: (message, options) =>
      guarded(() => prompts.input({ message, ...(options?.default !== undefined ? { default: options.default } : {}), ...(options?.validate ? { validate: options.validate } : {}) }, context)),
    password: (message, options) =>
      guarded(() => prompts.password({ message, mask: '*', ...(options?.validate ? { validate: options.validate } : {}) }, context)),
    confirm: (message, defaultValue = false) => guarded(() => prompts.confirm({ message, default: defaultValue }, context)),
  };
}
