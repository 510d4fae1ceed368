/**
 * What `sandbox start --detach` puts on the background server's command line: the words as typed
 * minus the secret options, read the way commander reads them (src/commands/sandbox/detach.ts).
 * The options are the real command tree's, so a new flag that takes a value is counted.
 */
import { PassThrough } from 'node:stream';
import type { Command, Option } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { withoutSecrets } from '../../../src/commands/sandbox/detach.js';
import { tempDir } from '../../helpers/temp-dir.js';

let options: Option[] = [];

beforeAll(async () => {
  const env = { KACTL_CONFIG_DIR: tempDir('kactl-detach-args-') };
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env, signal: new AbortController().signal, now: Date.now });
  const program = await buildProgram(ctx, []);
  const sandbox = program.commands.find((command) => command.name() === 'sandbox')!;
  const start = sandbox.commands.find((command) => command.name() === 'start')!;
  options = ([start, sandbox, program] as Command[]).flatMap((command) => command.options);
});

const KEY = 'Sk1lledSellerKey0123456789abcdef';

describe('withoutSecrets', () => {
  it.each([
    [['sandbox', 'start', '--seller-key', KEY, '--port', '0'], ['sandbox', 'start', '--port', '0']],
    [['sandbox', 'start', `--seller-key=${KEY}`, '--json'], ['sandbox', 'start', '--json']],
    [['--profile', 'p', 'sandbox', 'start', '--no-profile', '--seller-key', KEY], ['--profile', 'p', 'sandbox', 'start', '--no-profile']],
    // A value that looks like a flag: commander gives it to the option before it.
    [['sandbox', 'start', '--seller-key', '--json'], ['sandbox', 'start']],
    [['sandbox', 'start', '--app-name', '--seller-key', '--data', ':memory:'], ['sandbox', 'start', '--app-name', '--seller-key', '--data', ':memory:']],
    [['--profile', '--seller-key', 'sandbox', 'start'], ['--profile', '--seller-key', 'sandbox', 'start']],
    [['sandbox', 'start', '--app-name', 'x', '--seller-key', KEY, '--seller-key', KEY], ['sandbox', 'start', '--app-name', 'x']],
    // After `--` nothing is an option.
    [['sandbox', 'start', '--', '--seller-key', KEY], ['sandbox', 'start', '--', '--seller-key', KEY]],
  ])('%j → %j', (args, kept) => {
    expect(withoutSecrets(args, options)).toEqual(kept);
  });
});
