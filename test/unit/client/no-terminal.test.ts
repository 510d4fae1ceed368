/**
 * No client command may wait for input that cannot come: without a terminal (stdin closed, not
 * a TTY), a missing value stops the command at once with exit 2 and names the flag or argument
 * that supplies it. The list is checked against the command tree, so a new command needs an
 * entry here.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The command, its argv after `kactl client`, and what the error must name. */
const MISSING: readonly (readonly [string, string[], string])[] = [
  ['register', ['register'], '--username'],
  ['register', ['register', '--username', 'alice'], '--key'],
  ['register', ['register', '--username', 'alice', '--key', 'KEY'], '--password'],
  ['register', ['register', '--username', 'alice', '--key', 'KEY', '--password-stdin'], '--password-stdin'],
  ['login', ['login'], '--username or --email'],
  ['login', ['login', '--username', 'alice'], '--password or --password-stdin'],
  ['login', ['login', '--email', 'alice@example.com'], '--password'],
  ['login', ['login', '--username', 'alice', '--password', 'p', '--password-stdin'], '--password or --password-stdin, not both'],
  ['login', ['login', '--username', 'alice', '--email', 'alice@example.com'], '--username or --email, not both'],
  ['license', ['license'], '--key'],
  ['license', ['license', '--key', 'KEY', '--code', '12ab'], '6 digits'],
  ['upgrade', ['upgrade'], '--username'],
  ['upgrade', ['upgrade', '--username', 'alice'], '--key'],
  ['2fa enable', ['2fa', 'enable', '--code', '123'], '6 digits'],
  ['2fa disable', ['2fa', 'disable'], '--code'],
  ['magic-link', ['magic-link'], '--email'],
  ['magic-link', ['magic-link', '--email', 'a@example.com', '--wait-timeout', 'soon'], 'duration'],
  ['magic-link', ['magic-link', 'wait', '--wait-timeout', '-1'], 'duration'],
  ['magic-link', ['magic-link', 'resume'], "'resume'"],
  ['magic-link', ['magic-link', 'wait', '--email', 'a@example.com'], 'takes no --email'],
  ['email-code send', ['email-code', 'send'], '--email'],
  ['email-code verify', ['email-code', 'verify'], '--email'],
  ['email-code verify', ['email-code', 'verify', '--email', 'alice@example.com'], '--code'],
  ['var get', ['var', 'get'], "'name'"],
  ['var set', ['var', 'set', 'theme'], "'value'"],
  ['chat read', ['chat', 'read'], "'channel'"],
  ['chat send', ['chat', 'send', 'general'], "'message'"],
  ['webhook', ['webhook'], "'webid'"],
  ['global-var get', ['global-var', 'get'], "'name'"],
  ['file download', ['file', 'download'], "'id'"],
  ['log', ['log'], "'message'"],
  ['ban', ['ban'], '--yes'],
  ['change-username', ['change-username'], "'new-username'"],
  ['forgot', ['forgot'], '--username'],
  ['forgot', ['forgot', '--username', 'alice'], '--email'],
  ['call', ['call'], "'type'"],
];

/** Leaves that need nothing from the user (their flags are all optional). */
const NOTHING_REQUIRED = new Set(['init', 'logout', 'check', 'online', 'stats', 'whoami', 'blacklist check', '2fa enable', 'update', 'web-loader']);

function leaves(command: Command, prefix: string[] = []): string[] {
  const path = [...prefix, command.name()];
  const own = command.commands.length === 0 || (command as unknown as { _actionHandler: unknown })._actionHandler ? [path.join(' ')] : [];
  return [...own, ...command.commands.flatMap((sub) => leaves(sub, path))];
}

describe('client commands without a terminal', () => {
  const env = { KACTL_CONFIG_DIR: tempDir() };

  it.each(MISSING)('kactl client %s (%j) exits 2 naming %s', async (_command, args, named) => {
    const result = await runMain(['client', ...args], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(named);
    expect(result.stdout).toBe('');
  });

  it('covers every client command that needs a value', async () => {
    const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env, signal: new AbortController().signal, now: Date.now });
    const program = await buildProgram(ctx, ['client']);
    const client = program.commands.find((c) => c.name() === 'client')!;
    const all = client.commands.flatMap((c) => leaves(c));
    const listed = new Set(MISSING.map(([command]) => command));
    // Every group's `help [command…]` needs nothing either.
    const uncovered = all.filter((name) => !listed.has(name) && !NOTHING_REQUIRED.has(name) && !/(^| )help$/.test(name));
    expect(uncovered).toEqual([]);
  });
});
