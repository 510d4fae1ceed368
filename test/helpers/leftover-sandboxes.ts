/**
 * What a failed test may leave running: every sandbox registered in a data folder is killed
 * outright. The registry's own reader decides which entries are live (src/commands/sandbox/
 * registry.ts `listSandboxes`: the pid still has the identity the entry recorded, start time and
 * command line), so a pid reused since — with the kernel's 32,768 pids a full suite reuses them
 * within minutes, and it may be a test worker by now — or a planted -1, 0 or 1 is never signalled.
 */
import { listSandboxes } from '../../src/commands/sandbox/registry.js';
import { sendSignal } from '../../src/commands/sandbox/self-process.js';

export function killRegisteredSandboxes(dataDirs: readonly string[]): void {
  for (const dataDir of dataDirs) {
    for (const entry of listSandboxes(dataDir)) {
      try {
        sendSignal(entry.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}
