/** `kactl sandbox …`: the local compatible server, and what it "sends". */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerSandboxStart } from './start.js';
import { registerSandboxOutbox } from './outbox.js';
import { registerSandboxClock } from './clock.js';
import { registerSandboxStatus } from './status.js';
import { registerSandboxStop } from './stop.js';
import { registerSandboxCa } from './ca.js';
import { registerSandboxConnect } from './connect.js';
import { registerSandboxLogs } from './logs.js';
import { registerSandboxFault } from './fault.js';
import { registerSandboxExec } from './exec.js';
import { registerSandboxAudit } from './audit.js';
import { registerSandboxUi } from './ui.js';

export function registerSandboxCommands(program: Command, ctx: Context): void {
  const group = program
    .command('sandbox')
    .description('run a local compatible server (client API 1.3/1.2 and seller API) for offline tests')
    // `sandbox exec` passes everything after its command on to it (the program sets this too).
    .enablePositionalOptions()
    .addHelpText(
      'after',
      `
The sandbox signs 1.3 answers with its own Ed25519 key, keeps its data in SQLite, and puts the
email it would send (magic links, one-time codes, password resets) in an outbox.`,
    );
  registerSandboxStart(group, ctx);
  registerSandboxStatus(group, ctx);
  registerSandboxStop(group, ctx);
  registerSandboxOutbox(group, ctx);
  registerSandboxClock(group, ctx);
  registerSandboxCa(group, ctx);
  registerSandboxConnect(group, ctx);
  registerSandboxLogs(group, ctx);
  registerSandboxFault(group, ctx);
  registerSandboxExec(group, ctx);
  registerSandboxAudit(group, ctx);
  registerSandboxUi(group, ctx);
}
