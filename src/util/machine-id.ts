/**
 * This machine's own identifier, the HWID a protected program would send by default:
 * Linux `/etc/machine-id` (else `/var/lib/dbus/machine-id`), macOS the IOPlatformUUID from
 * `ioreg`, Windows the MachineGuid from the registry (else `wmic csproduct`). Trimmed, because a
 * machine-id file ends with a newline the server would otherwise keep (docs/protocol/client-api.md §1.2).
 * Undefined when none can be read: the caller decides what to send then.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';

export interface MachineIdDeps {
  /** `os.platform()` by default. */
  platform?: NodeJS.Platform;
  readFile?: (path: string) => Promise<string>;
  /** Runs a program and resolves with its stdout. */
  run?: (file: string, args: readonly string[]) => Promise<string>;
}

const LINUX_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

function runProgram(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // A short timeout: a wedged system tool must not hold a login up.
    execFile(file, [...args], { timeout: 5000, windowsHide: true }, (error, stdout) => (error ? reject(new Error(error.message)) : resolve(stdout)));
  });
}

/** `"IOPlatformUUID" = "1A2B…"` in `ioreg -rd1 -c IOPlatformExpertDevice`. */
export function parseIoreg(text: string): string | undefined {
  return /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(text)?.[1];
}

/** `MachineGuid    REG_SZ    1a2b…` in `reg query …\Cryptography /v MachineGuid`. */
export function parseRegQuery(text: string): string | undefined {
  return /MachineGuid\s+REG_\w+\s+(\S+)/i.exec(text)?.[1];
}

/** The value under the `UUID` header of `wmic csproduct get UUID`. */
export function parseWmic(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const header = lines.findIndex((l) => l.toUpperCase() === 'UUID');
  return header >= 0 ? lines[header + 1] : undefined;
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

async function firstOf(attempts: readonly (() => Promise<string | undefined>)[]): Promise<string | undefined> {
  for (const attempt of attempts) {
    try {
      const value = clean(await attempt());
      if (value !== undefined) return value;
    } catch {
      // Missing file, missing tool, no permission: try the next source.
    }
  }
  return undefined;
}

export async function readMachineId(deps: MachineIdDeps = {}): Promise<string | undefined> {
  const platform = deps.platform ?? os.platform();
  const read = deps.readFile ?? ((path: string) => readFile(path, 'utf8'));
  const run = deps.run ?? runProgram;
  switch (platform) {
    case 'darwin':
      return firstOf([async () => parseIoreg(await run('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']))]);
    case 'win32':
      return firstOf([
        async () => parseRegQuery(await run('reg', ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid'])),
        async () => parseWmic(await run('wmic', ['csproduct', 'get', 'UUID'])),
      ]);
    default:
      // Linux and the other Unixes that keep a systemd/dbus machine id.
      return firstOf(LINUX_FILES.map((path) => () => read(path)));
  }
}
