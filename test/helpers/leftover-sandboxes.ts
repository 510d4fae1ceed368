/**
 * What a failed page test may leave running: every sandbox registered in a data folder
 * (`<data>/sandboxes/*.json`, src/commands/sandbox/registry.ts) is killed outright.
 */
import fs from 'node:fs';
import path from 'node:path';

export function killRegisteredSandboxes(dataDirs: readonly string[]): void {
  for (const dataDir of dataDirs) {
    const registry = path.join(dataDir, 'sandboxes');
    for (const name of fs.existsSync(registry) ? fs.readdirSync(registry) : []) {
      if (!name.endsWith('.json')) continue;
      try {
        process.kill((JSON.parse(fs.readFileSync(path.join(registry, name), 'utf8')) as { pid: number }).pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}
