/**
 * `kactl client …`: the client API, as a protected program would call it. Every command talks
 * to the profile's server through src/api/ and keeps the session in the profile, so
 * `init`, `login`, `var get`, `chat send` work across separate runs.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { reachedBy, type Registrar, type Registration } from '../registration.js';
import { registerClientAppInfo } from './app-info.js';
import { registerClientBan } from './ban.js';
import { registerClientBlacklist } from './blacklist.js';
import { registerClientCall } from './call.js';
import { registerClientChangeUsername } from './change-username.js';
import { registerClientChat } from './chat.js';
import { registerClientCheck } from './check.js';
import { registerClientEmailCode } from './email-code.js';
import { registerClientFile } from './file-download.js';
import { registerClientForgot } from './forgot.js';
import { registerClientGlobalVar } from './global-var.js';
import { registerClientInit } from './init.js';
import { registerClientLicense } from './license.js';
import { registerClientLog } from './log.js';
import { registerClientLogin } from './login.js';
import { registerClientLogout } from './logout.js';
import { registerClientMagicLink } from './magic-link.js';
import { registerClientRegister } from './register.js';
import { registerClientTwoFactor } from './two-factor.js';
import { registerClientUpdate } from './update.js';
import { registerClientUpgrade } from './upgrade.js';
import { registerClientUserVar } from './user-var.js';
import { registerClientWebLoader } from './web-loader.js';
import { registerClientWebhook } from './webhook.js';
import { registerClientWhoami } from './whoami.js';

type AddClientCommand = (group: Command, ctx: Context) => void;

/** The client's commands, in the order a program walks its flows (the order `kactl client --help` lists). */
export const CLIENT_COMMANDS: readonly Registrar<AddClientCommand>[] = [
  { names: ['init'], add: registerClientInit },
  { names: ['update'], add: registerClientUpdate },
  { names: ['register'], add: registerClientRegister },
  { names: ['login'], add: registerClientLogin },
  { names: ['license'], add: registerClientLicense },
  { names: ['upgrade'], add: registerClientUpgrade },
  { names: ['2fa'], add: registerClientTwoFactor },
  { names: ['magic-link'], add: registerClientMagicLink },
  { names: ['email-code'], add: registerClientEmailCode },
  { names: ['var'], add: registerClientUserVar },
  { names: ['chat'], add: registerClientChat },
  { names: ['webhook'], add: registerClientWebhook },
  { names: ['web-loader'], add: registerClientWebLoader },
  { names: ['global-var'], add: registerClientGlobalVar },
  { names: ['file'], add: registerClientFile },
  { names: ['log'], add: registerClientLog },
  { names: ['blacklist'], add: registerClientBlacklist },
  { names: ['ban'], add: registerClientBan },
  { names: ['change-username'], add: registerClientChangeUsername },
  { names: ['forgot'], add: registerClientForgot },
  { names: ['online', 'stats'], add: registerClientAppInfo },
  { names: ['check'], add: registerClientCheck },
  { names: ['whoami'], add: registerClientWhoami },
  { names: ['logout'], add: registerClientLogout },
  { names: ['call'], add: registerClientCall },
];

export function registerClientCommands(program: Command, ctx: Context, { words }: Registration): void {
  const group = program
    .command('client')
    .description('walk a protected program\'s flows: init, register, logins, 2FA, magic links, variables, chat')
    .addHelpText(
      'after',
      `
A typical walk:
  $ kactl client init
  $ kactl client register --username alice --key KEY --password-stdin < password.txt
  $ kactl client login --username alice --password-stdin < password.txt
  $ kactl client var set theme dark && kactl client var get theme
  $ kactl client logout

Without a terminal, a missing value stops the command with exit 2 and names the flag.`,
    );
  // Only the command the line names (every one for the group's help, or a name none has).
  for (const { add } of reachedBy(CLIENT_COMMANDS, words?.[1])) add(group, ctx);
}
