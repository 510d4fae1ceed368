/**
 * Help on a real 80-column terminal (a pseudo-terminal 80 wide, and a wider one with
 * COLUMNS=80): the built kactl
 * lays every line out within 80 columns, so the terminal never breaks one in the middle of a
 * word. test/unit/cli/help-width.test.ts checks every command's help in-process; this checks
 * the real binary, on the path a terminal takes (the bundle, not the help written at build).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnInPty, type PtyRun } from '../helpers/pty.js';
import { KACTL_BIN } from '../helpers/run-kactl.js';
import { requireFreshBuild } from '../helpers/built.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';

let running: PtyRun | undefined;

afterEach(() => {
  running?.kill();
  running = undefined;
});

/**
 * The screen's lines, as the terminal printed them (its line ends are `\r\n`), once `last` (the
 * help's last word) is on it. kactl runs under a shell that waits a little after it: a terminal
 * whose program has ended may drop what it had not handed over yet.
 */
async function screenOf(args: readonly string[], last: string, terminal: { cols: number; env: Record<string, string> }): Promise<string[]> {
  const command = [process.execPath, KACTL_BIN, ...args].map((word) => `'${word}'`).join(' ');
  running = spawnInPty('/bin/sh', ['-c', `${command}; echo "exit $?"; sleep 30`], { configDir: tempDir('kactl-help-width-'), cols: terminal.cols, rows: 400, env: terminal.env });
  const screen = await running.waitFor(new RegExp(`${last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\nexit 0`), 20_000);
  running.kill();
  running = undefined;
  return screen.replace(/\nexit 0\s*$/, '').split('\n').map((line) => line.replace(/\s+$/, ''));
}

describe('help on an 80-column terminal', () => {
  it('fits every line of the help people read most, words whole', async () => {
    requireFreshBuild();
    for (const args of [['--help'], ['sandbox', 'exec', '--help'], ['sandbox', 'logs', '--help'], ['users', '--help'], ['sandbox', 'fault', '--help'], ['app', 'set', '--help'], ['help', 'lists']]) {
      // No word split to fit: the words are those of the same help laid out without a limit
      // (less the ` \\` and `#` that continue an example or its comment on the next line).
      const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '' && word !== '\\' && word !== '#');
      const unlimited = await runMain(args, { stdoutTTY: true, columns: 10_000 });
      // An 80-column terminal, and a wider one with COLUMNS=80.
      for (const terminal of [{ cols: 80, env: {} }, { cols: 132, env: { COLUMNS: '80' } }] as { cols: number; env: Record<string, string> }[]) {
        const lines = await screenOf(args, unlimited.stdout.trimEnd().split('\n').at(-1)!.trim().split(' ').at(-1)!, terminal);
        expect(lines.length, args.join(' ')).toBeGreaterThan(10);
        expect(lines.filter((line) => line.length > 80), `${args.join(' ')} at ${terminal.cols}`).toEqual([]);
        expect(words(lines.join('\n')), args.join(' ')).toEqual(words(unlimited.stdout));
      }
    }
  });
});
