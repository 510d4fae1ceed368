/**
 * What a failed page test may leave running: every sandbox registered in a data folder
 * (`<data>/sandboxes/*.json`, src/commands/sandbox/registry.ts) is killed outright. Only pids
 * that name one process (integers above 1): a test may plant entries with pid -1, 0 or 1, and
 * SIGKILL to -1 would end every process of the user.
 */
import fs from 'node:fs';
import path from 'node:path';

export function killRegisteredSandboxes(dataDirs: readonly string[]): void {
  for (const dataDir of dataDirs) {
    const registry = path.join(dataDir, 'sandboxes');
    for (const name of fs.existsSync(registry) ? fs.readdirSync(registry) : []) {
      if (!name.endsWith('.json')) continue;
      try {
        const { pid } = JSON.parse(fs.readFileSync(path.join(registry, name), 'utf8')) as { pid: unknown };
        if (typeof pid === 'number' && Number.isInteger(pid) && pid > 1) process.kill(pid, 'SIGKILL');
      } catch {
        // gone already, or not an entry
      }
    }
  }
}
