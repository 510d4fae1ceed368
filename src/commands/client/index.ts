/**
 * `kactl client …`: the client API, as a protected program would call it. Every command talks
 * to the profile's server through src/api/ and keeps the session in the profile, so
 * `init`, `login`, `var get`, `chat send` work across separate runs.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
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

export function registerClientCommands(program: Command, ctx: Context): void {
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
  // In the order a program walks its flows.
  registerClientInit(group, ctx);
  registerClientUpdate(group, ctx);
  registerClientRegister(group, ctx);
  registerClientLogin(group, ctx);
  registerClientLicense(group, ctx);
  registerClientUpgrade(group, ctx);
  registerClientTwoFactor(group, ctx);
  registerClientMagicLink(group, ctx);
  registerClientEmailCode(group, ctx);
  registerClientUserVar(group, ctx);
  registerClientChat(group, ctx);
  registerClientWebhook(group, ctx);
  registerClientWebLoader(group, ctx);
  registerClientGlobalVar(group, ctx);
  registerClientFile(group, ctx);
  registerClientLog(group, ctx);
  registerClientBlacklist(group, ctx);
  registerClientBan(group, ctx);
  registerClientChangeUsername(group, ctx);
  registerClientForgot(group, ctx);
  registerClientAppInfo(group, ctx);
  registerClientCheck(group, ctx);
  registerClientWhoami(group, ctx);
  registerClientLogout(group, ctx);
  registerClientCall(group, ctx);
}
