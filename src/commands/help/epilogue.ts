/**
 * The end of `kactl --help`: the exit codes and variables by name, and the topics that say more
 * (src/commands/help/topics.ts). Apart from the topics because every run builds the program with
 * it, and the lists topic reads the whole seller catalog, which a client command never loads.
 */
import { ENV_VARS } from '../../env.js';
import { ExitCode } from '../../errors.js';

/** The end of `kactl --help` (laid out at the help's width). */
export function programEpilogue(): string {
  const codes = (Object.keys(ExitCode) as (keyof typeof ExitCode)[]).map((name) => `${ExitCode[name]} ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`).join(', ');
  const vars = Object.keys(ENV_VARS).join(' ');
  return [
    '',
    `Exit codes: ${codes}. Details: kactl help exit-codes`,
    '',
    `Environment: ${vars}. Details: kactl help environment`,
    '',
    'Lists: filters (--status, --used-by, --since...), --json FIELDS and --jq. Details: kactl help lists',
    '',
    'Global options: kactl help global-options',
  ].join('\n');
}
