/**
 * Help topics (`kactl help environment`, `kactl help exit-codes`, as gh has them) and the short
 * lists at the end of `kactl --help`. Every line is written from its source: the variables and
 * their descriptions from src/env.ts, the codes and their meanings from src/errors.ts.
 */
import { ENV_VARS } from '../../env.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../../errors.js';
import { wrapWords } from '../../io/wrap.js';
import { listsTopic } from './lists-topic.js';

type ExitName = keyof typeof ExitCode;
const EXIT_NAMES = Object.keys(ExitCode) as ExitName[];

function wrap(text: string, width: number, indent: string): string[] {
  return wrapWords(text, width, indent);
}

/** `kactl help environment`. */
export function environmentTopic(): string {
  const names = Object.keys(ENV_VARS) as (keyof typeof ENV_VARS)[];
  const lines = ['Environment variables kactl reads (an empty value counts as unset):', ''];
  for (const name of names) lines.push(`  ${name}`, ...wrap(ENV_VARS[name], 96, '      '));
  lines.push('', 'A flag wins over its variable, and the variable over the profile.');
  lines.push(
    '',
    ...wrap(
      '`kactl sandbox exec -- COMMAND` gives COMMAND its sandbox in the server variables above (KACTL_BASE_URL, KACTL_APP_NAME, KACTL_OWNERID, KACTL_APP_VERSION, KACTL_APP_SECRET, KACTL_PUBLIC_KEY, KACTL_SELLER_KEY, KACTL_ADMIN_TOKEN, KACTL_SELLER_RATE), and with --tls KACTL_CA_FILE and NODE_EXTRA_CA_CERTS (Node adds that certificate to the ones it trusts). KACTL_CONFIG_DIR names a config folder of the run, removed when COMMAND ends, so kactl inside keeps its sessions there and leaves your profiles alone. KACTL_RETRIES is 0 there unless you set it: kactl inside does not retry.',
      96,
      '',
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** `kactl help exit-codes`. */
export function exitCodesTopic(): string {
  const lines = ['Exit codes:', ''];
  for (const name of EXIT_NAMES) lines.push(...wrap(EXIT_CODE_MEANINGS[name], 96, '       ').map((line, i) => (i === 0 ? `  ${String(ExitCode[name]).padStart(3)}  ${line.trimStart()}` : line)));
  return `${lines.join('\n')}\n`;
}

/** The end of `kactl --help`: the codes and variables by name, and where to read more. */
export function programEpilogue(): string {
  const codes = EXIT_NAMES.map((name) => `${ExitCode[name]} ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`).join(', ');
  const vars = Object.keys(ENV_VARS).join(' ');
  return [
    '',
    ...wrap(`Exit codes: ${codes}. Details: kactl help exit-codes`, 100, '').map((l, i) => (i === 0 ? l : `  ${l}`)),
    '',
    ...wrap(`Environment: ${vars}. Details: kactl help environment`, 100, '').map((l, i) => (i === 0 ? l : `  ${l}`)),
    '',
    'Lists: filters (--status, --used-by, --since...), --json FIELDS and --jq. Details: kactl help lists',
  ].join('\n');
}

export const HELP_TOPICS: Readonly<Record<string, { summary: string; text: () => string }>> = {
  environment: { summary: 'the environment variables kactl reads', text: environmentTopic },
  'exit-codes': { summary: 'what each exit code means', text: exitCodesTopic },
  lists: { summary: 'filters, --columns, --json FIELDS and --jq on list and record commands', text: listsTopic },
};
