/**
 * The error of a sandbox option that is malformed or contradicts the store. Its own module, so
 * that kactl/sandbox's declarations name it without reaching the store (and its SQLite types).
 */
import { UsageError } from '../../api/errors.js';

/** The options of a sandbox a SandboxConfigError can name, as `startSandbox` spells them. */
export type SandboxOptionName = 'port' | 'failureStatus' | 'data' | 'logLimit' | 'appName' | 'ownerid' | 'sellerKey' | 'tls';

/** How a caller spells an option: the library by its name (`appName`), the CLI by its flag (`--app-name`). */
export type OptionSpelling = (option: SandboxOptionName) => string;

/**
 * A sandbox option is malformed or contradicts the store (code `USAGE`). The message names the
 * option as `startSandbox` does; `messageFor` spells it another way (the CLI's flags).
 */
export class SandboxConfigError extends UsageError {
  readonly option: SandboxOptionName | undefined;
  readonly messageFor: (spell: OptionSpelling) => string;
  constructor(describe: string | ((spell: OptionSpelling) => string), option?: SandboxOptionName) {
    const messageFor = typeof describe === 'string' ? () => describe : describe;
    super(messageFor((name) => name));
    this.option = option;
    this.messageFor = messageFor;
  }
}
