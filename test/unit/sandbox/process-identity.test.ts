/**
 * How a pid's identity is read (src/commands/sandbox/process-identity.ts): which pids may be
 * signalled, which command lines are a kactl `sandbox start`, and the identity of real processes
 * read from /proc (Linux) and through `ps` (the macOS and BSD way, run here for real).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSandboxCommand, isSignallablePid, parsePsLine, sameIdentity, sandboxIdentity } from '../../../src/commands/sandbox/process-identity.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const KACTL = path.resolve('bin/kactl.js');

function lookalike(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)', KACTL, 'sandbox', 'start', '--data', ':memory:'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
}

describe('isSignallablePid', () => {
  it('accepts only integers above 1', () => {
    for (const pid of [2, 4242, 2 ** 22]) expect(isSignallablePid(pid)).toBe(true);
    for (const pid of [-1, 0, 1, -4242, 1.5, Number.NaN, Infinity, 2 ** 53, '4242', null, undefined]) expect(isSignallablePid(pid)).toBe(false);
  });
});

describe('isSandboxCommand', () => {
  it.each([
    [['node', '/usr/local/bin/kactl', 'sandbox', 'start'], true],
    [['/usr/bin/node', '--enable-source-maps', '/srv/kactl/bin/kactl.js', '--profile', 'p', 'sandbox', 'start', '--data', 'x.db'], true],
    [['"C:\\Program', 'Files\\nodejs\\node.exe"', '"C:\\Users\\a\\kactl\\bin\\kactl.js"', 'sandbox', 'start'], true],
    [['kactl-sandbox', '600'], false],
    [['sleep', '600', 'sandbox', 'start'], false],
    [['node', '/srv/kactl/bin/kactl.js', 'sandbox', 'stop'], false],
    [['node', '/srv/kactl/bin/kactl.js', 'sandbox', 'exec', '--', 'sh', '-c', 'exit 3'], true],
    [['node', '/srv/kactl/bin/kactl.js', 'sandbox', 'logs', '--follow'], false],
    [['node', '/srv/other.js', 'sandbox', 'start'], false],
    [['node', '/srv/kactl/bin/kactl.js', 'start', 'sandbox'], false],
    [['node', '/usr/lib/node_modules/kactl/bin/kactl-cli.mjs', 'sandbox', 'start'], true],
    [['node', '/usr/local/bin/ka', 'sandbox', 'start'], false],
  ])('%j → %s', (words, expected) => {
    expect(isSandboxCommand(words)).toBe(expected);
  });
});

describe('parsePsLine', () => {
  it('takes five words of lstart, then the command', () => {
    const raw = parsePsLine('Mon Jan  1 12:00:00 2024 node /usr/bin/kactl sandbox start --data a b.db\n');
    expect(raw).toEqual({ start: 'ps:Mon Jan 1 12:00:00 2024', words: ['node', '/usr/bin/kactl', 'sandbox', 'start', '--data', 'a', 'b.db'], commandText: 'node /usr/bin/kactl sandbox start --data a b.db' });
    expect(parsePsLine('Mon Jan  1 12:00:00 2024 <defunct>')).toBeUndefined();
    expect(parsePsLine('Mon Jan  1 12:00:00 2024 [node] <defunct>')).toBeUndefined();
    expect(parsePsLine('')).toBeUndefined();
  });
});

describe('sandboxIdentity of real processes', () => {
  const platforms: NodeJS.Platform[] = [...(process.platform === 'linux' ? (['linux'] as const) : []), 'darwin'];

  it.each(platforms)('%s: the same for the same process, none for other commands or once it has gone', async (platform) => {
    const first = lookalike();
    const identity = await until(() => sandboxIdentity(first.pid!, platform));
    expect(identity.start).toMatch(platform === 'linux' ? /^linux:[0-9a-f-]{36}:\d+$/ : /^ps:\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}$/);
    expect(identity.command).toMatch(/^[0-9a-f]{64}$/);
    expect(sameIdentity(sandboxIdentity(first.pid!, platform), identity)).toBe(true);

    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore', argv0: 'kactl-sandbox' });
    children.push(sleeper);
    await until(() => (sleeper.pid !== undefined ? true : undefined));
    expect(sandboxIdentity(sleeper.pid!, platform)).toBeUndefined();

    first.kill('SIGKILL');
    await exited(first);
    expect(sandboxIdentity(first.pid!, platform)).toBeUndefined();
    expect(sandboxIdentity(-1, platform)).toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux')('linux: two processes with one command line differ by start time', async () => {
    const a = lookalike();
    const one = await until(() => sandboxIdentity(a.pid!));
    // Clock ticks are 1/100 s: a process started later has another start time.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = lookalike();
    const two = await until(() => sandboxIdentity(b.pid!));
    expect(two.command).toBe(one.command);
    expect(two.start).not.toBe(one.start);
  });
});
