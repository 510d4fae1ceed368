/**
 * What a failed test may leave running: every sandbox registered in a data folder
 * (`<data>/sandboxes/*.json`, src/commands/sandbox/registry.ts) is killed outright — but only
 * while its pid still names that sandbox (the identity the entry recorded: start time and command
 * line, src/commands/sandbox/process-identity.ts). An entry outlives a sandbox killed outright,
 * and with the kernel's 32,768 pids a full suite reuses pids within minutes: a stale entry's pid
 * may be a test worker by now. A test may also plant entries with pid -1, 0 or 1 (SIGKILL to -1
 * would end every process of the user), which isSignallablePid leaves out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isIdentity, isSignallablePid, processIdentity, sameIdentity } from '../../src/commands/sandbox/process-identity.js';

export function killRegisteredSandboxes(dataDirs: readonly string[]): void {
  for (const dataDir of dataDirs) {
    const registry = path.join(dataDir, 'sandboxes');
    for (const name of fs.existsSync(registry) ? fs.readdirSync(registry) : []) {
      if (!name.endsWith('.json')) continue;
      try {
        const { pid, process: recorded } = JSON.parse(fs.readFileSync(path.join(registry, name), 'utf8')) as { pid: unknown; process: unknown };
        if (!isSignallablePid(pid) || !isIdentity(recorded)) continue;
        if (sameIdentity(processIdentity(pid)?.identity, recorded)) process.kill(pid, 'SIGKILL');
      } catch {
        // gone already, or not an entry
      }
    }
  }
}
