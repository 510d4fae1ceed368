/**
 * Help topics (`kactl help environment`, `kactl help exit-codes`, as gh has them; the short lists
 * at the end of `kactl --help` are epilogue.ts's). Every line is written from its source: the
 * variables and their descriptions from src/env.ts, the codes and their meanings from
 * src/errors.ts, the global options from global-options.ts. A topic is laid out at the width it
 * is read at.
 */
import { Help } from 'commander';
import { ENV_VARS } from '../../env.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../../errors.js';
import { wrapWords } from '../../io/wrap.js';
import { globalOptions } from '../global-options.js';
import { itemLines, termWidthOf } from './layout.js';
import { listsTopic } from './lists-topic.js';

type ExitName = keyof typeof ExitCode;
const EXIT_NAMES = Object.keys(ExitCode) as ExitName[];

/** `kactl help environment`. */
export function environmentTopic(width: number): string {
  const names = Object.keys(ENV_VARS) as (keyof typeof ENV_VARS)[];
  const lines = ['Environment variables kactl reads (an empty value counts as unset):', ''];
  for (const name of names) lines.push(`  ${name}`, ...wrapWords(ENV_VARS[name], width, '      '));
  lines.push('', ...wrapWords('A flag wins over its variable, and the variable over the profile.', width));
  lines.push(
    '',
    ...wrapWords(
      '`kactl sandbox exec -- COMMAND` gives COMMAND its sandbox in the server variables above (KACTL_BASE_URL, KACTL_APP_NAME, KACTL_OWNERID, KACTL_APP_VERSION, KACTL_APP_SECRET, KACTL_PUBLIC_KEY, KACTL_SELLER_KEY, KACTL_ADMIN_TOKEN, KACTL_SELLER_RATE), and with --tls KACTL_CA_FILE and NODE_EXTRA_CA_CERTS (Node adds that certificate to the ones it trusts). KACTL_CONFIG_DIR names a config folder of the run, removed when COMMAND ends, so kactl inside keeps its sessions there and leaves your profiles alone. KACTL_RETRIES is 0 there unless you set it: kactl inside does not retry.',
      width,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** `kactl help exit-codes`. */
export function exitCodesTopic(width: number): string {
  const lines = ['Exit codes:', ''];
  for (const name of EXIT_NAMES) {
    const [first = '', ...rest] = wrapWords(EXIT_CODE_MEANINGS[name], width, '       ');
    lines.push(`  ${String(ExitCode[name]).padStart(3)}  ${first.trimStart()}`, ...rest);
  }
  return `${lines.join('\n')}\n`;
}

/** `kactl help global-options`: every global option, as the program's help lists them. */
export function globalOptionsTopic(width: number): string {
  const help = new Help();
  const items = globalOptions().map((option) => ({ term: help.optionTerm(option), description: help.optionDescription(option) }));
  const termWidth = termWidthOf(items, width);
  const lines = [
    ...wrapWords('Global options: every command takes them, before its name or after it (kactl --profile prod licenses list, kactl licenses list --profile prod).', width),
    '',
    ...items.flatMap((item) => itemLines(item.term, termWidth, item.description, width)),
    '',
    ...wrapWords('A leaf command that has a flag of the same name with a meaning of its own (kactl sandbox start --app-name) lists it under its options; there the flag means what that command says.', width),
  ];
  return `${lines.join('\n')}\n`;
}

export const HELP_TOPICS: Readonly<Record<string, { summary: string; text: (width: number) => string }>> = {
  environment: { summary: 'the environment variables kactl reads', text: environmentTopic },
  'exit-codes': { summary: 'what each exit code means', text: exitCodesTopic },
  lists: { summary: 'filters, --columns, --json FIELDS and --jq on list and record commands', text: listsTopic },
  'global-options': { summary: 'the options every command takes', text: globalOptionsTopic },
};
