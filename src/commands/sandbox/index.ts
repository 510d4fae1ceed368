/** `kactl sandbox …`: the local compatible server, and what it "sends". */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { reachedBy, type Registrar, type Registration } from '../registration.js';
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

type AddSandboxCommand = (group: Command, ctx: Context) => void;

/** The sandbox's commands, in the order `kactl sandbox --help` lists them. */
export const SANDBOX_COMMANDS: readonly Registrar<AddSandboxCommand>[] = [
  { names: ['start'], add: registerSandboxStart },
  { names: ['status'], add: registerSandboxStatus },
  { names: ['stop'], add: registerSandboxStop },
  { names: ['outbox'], add: registerSandboxOutbox },
  { names: ['clock', 'advance'], add: registerSandboxClock },
  { names: ['ca'], add: registerSandboxCa },
  { names: ['connect'], add: registerSandboxConnect },
  { names: ['logs'], add: registerSandboxLogs },
  { names: ['fault'], add: registerSandboxFault },
  { names: ['exec'], add: registerSandboxExec },
  { names: ['audit'], add: registerSandboxAudit },
  { names: ['ui'], add: registerSandboxUi },
];

export function registerSandboxCommands(program: Command, ctx: Context, { words }: Registration): void {
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
  // Only the command the line names (every one for the group's help, or a name none has).
  for (const { add } of reachedBy(SANDBOX_COMMANDS, words?.[1])) add(group, ctx);
}
