/**
 * Which process a pid names right now. A registry entry records its sandbox's identity when it
 * claims a store; `status` and `stop` believe the entry only while the pid still has that
 * identity, so a process that reused a dead sandbox's pid is never signalled, and no profile is
 * removed on its account.
 *
 * An identity is the process's start time and a digest of its command line (the digest, because
 * a foreground `sandbox start --seller-key K` has the key in its argv and the registry file must
 * not). Where they come from:
 * - Linux: `/proc/<pid>/stat` field 22 (start time in clock ticks since boot) with the boot's id
 *   (`/proc/sys/kernel/random/boot_id`: unlike the boot time in /proc/stat it does not move when
 *   the wall clock is stepped), and `/proc/<pid>/cmdline` (argv exactly).
 * - macOS and the BSDs: `ps -ww -o lstart= -o command= -p PID` in the C locale (start to the
 *   second; argv joined by spaces).
 * - Windows: PowerShell's Win32_Process `CreationDate` (to the microsecond) and `CommandLine`.
 *
 * The command must also read as a kactl that serves a sandbox: a script named kactl… (kactl.js),
 * then `sandbox start` or `sandbox exec` (which serves one while its command runs). The store path is covered by the digest (the argv names it as it was typed,
 * or, without --data, the default), as a relative --data cannot be resolved from outside.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';

export interface ProcessIdentity {
  /** Where the start time was read, and the start time: `linux:<boot id>:<ticks>`, `ps:<lstart>`, `win:<creation date>`. */
  readonly start: string;
  /** SHA-256 (hex) of the command line as `start` was read with it. */
  readonly command: string;
}

/** The largest pid any of our platforms hands out (Linux's limit is 2^22). */
const MAX_PID = 2 ** 31 - 1;

/** A pid kactl may signal: pid 0, 1 and negative ones name process groups, init or every process. */
export function isSignallablePid(pid: unknown): pid is number {
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 1 && pid <= MAX_PID;
}

export function isIdentity(value: unknown): value is ProcessIdentity {
  const identity = value as Partial<ProcessIdentity> | null;
  return typeof identity === 'object' && identity !== null && typeof identity.start === 'string' && identity.start !== '' && typeof identity.command === 'string' && /^[0-9a-f]{64}$/.test(identity.command);
}

interface RawProcess {
  start: string;
  /** argv (Linux) or the command line as one string split at spaces (ps, Windows). */
  words: string[];
  /** What the digest is taken over. */
  commandText: string;
}

type Reader = (pid: number) => RawProcess | undefined;

/**
 * The identity of `pid` if it is running (not a zombie) and its command is a kactl
 * `sandbox start`; undefined otherwise, or when it cannot be read (another user's process under
 * `hidepid`, no `ps`).
 */
export function sandboxIdentity(pid: number, platform: NodeJS.Platform = process.platform): ProcessIdentity | undefined {
  const identity = processIdentity(pid, platform);
  return identity?.isSandbox ? identity.identity : undefined;
}

/** The identity of any running process, and whether its command reads as a kactl `sandbox start` or `sandbox exec`. */
export function processIdentity(pid: number, platform: NodeJS.Platform = process.platform): { identity: ProcessIdentity; isSandbox: boolean } | undefined {
  if (!isSignallablePid(pid)) return undefined;
  const raw = readerFor(platform)(pid);
  if (raw === undefined) return undefined;
  return { identity: { start: raw.start, command: createHash('sha256').update(raw.commandText).digest('hex') }, isSandbox: isSandboxCommand(raw.words) };
}

export function sameIdentity(a: ProcessIdentity | undefined, b: ProcessIdentity): boolean {
  return a !== undefined && a.start === b.start && a.command === b.command;
}

/** `… kactl[.js] … sandbox start|exec …`: the script, then the command (global options may sit between). */
export function isSandboxCommand(words: readonly string[]): boolean {
  // A packager may name the script kactl-cli or kactl.mjs; the identity check does the rest.
  const script = words.findIndex((word) => /^kactl[\w.-]*$/i.test(baseName(word)));
  if (script < 0) return false;
  for (let i = script + 1; i < words.length - 1; i++) if (words[i] === 'sandbox' && (words[i + 1] === 'start' || words[i + 1] === 'exec')) return true;
  return false;
}

function baseName(word: string): string {
  return word.replace(/^"|"$/g, '').split(/[\\/]/).pop() ?? '';
}

function readerFor(platform: NodeJS.Platform): Reader {
  if (platform === 'linux' || platform === 'android') return readLinux;
  if (platform === 'win32') return readWindows;
  return readPs;
}

function readLinux(pid: number): RawProcess | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid …": comm may hold spaces and parentheses, so fields count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [state] = fields;
    const ticks = fields[19];
    if (state === 'Z' || state === 'X' || ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
    const bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return { start: `linux:${bootId}:${ticks}`, words: cmdline.split('\0').filter((word) => word !== ''), commandText: cmdline };
  } catch {
    return undefined;
  }
}

/** Runs a system tool; undefined when it is missing, fails or says nothing. */
function run(file: string, args: string[]): string | undefined {
  try {
    const out = execFileSync(file, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      windowsHide: true,
      // The C locale: `lstart` reads the same whatever the user's LANG. The rest of the
      // environment stays (PowerShell needs SystemRoot and the like).
      env: { ...process.env, LC_ALL: 'C' },
    });
    return out.trim() === '' ? undefined : out;
  } catch {
    return undefined;
  }
}

/** `Mon Jan  1 12:00:00 2024 node /usr/bin/kactl sandbox start` (lstart is always five words). */
export function parsePsLine(text: string): RawProcess | undefined {
  const line = text.split('\n')[0]!.trim();
  const words = line.split(/\s+/);
  if (words.length < 6) return undefined;
  const command = line.replace(/^(\S+\s+){5}/, '');
  if (command.startsWith('<defunct>') || / <defunct>$/.test(command)) return undefined;
  return { start: `ps:${words.slice(0, 5).join(' ')}`, words: words.slice(5), commandText: command };
}

function readPs(pid: number): RawProcess | undefined {
  const out = run('ps', ['-ww', '-o', 'lstart=', '-o', 'command=', '-p', String(pid)]);
  return out === undefined ? undefined : parsePsLine(out);
}

/** Two lines: the creation date (round-trip format, UTC), then the command line. */
function readWindows(pid: number): RawProcess | undefined {
  const script = `$p = Get-CimInstance Win32_Process -Filter 'ProcessId=${pid}'; if ($p) { $p.CreationDate.ToUniversalTime().ToString('o'); $p.CommandLine }`;
  const out = run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]);
  const [created, ...rest] = (out ?? '').split(/\r?\n/);
  const command = rest.join(' ').trim();
  if (!created || command === '') return undefined;
  return { start: `win:${created.trim()}`, words: command.split(/\s+/), commandText: command };
}
