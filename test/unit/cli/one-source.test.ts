/**
 * Options are defined once: the program's "which word is the command" scan takes its list of
 * value-taking flags from the global option definitions, and the settings given as flags are
 * read by the settings table, not a hand-kept copy.
 */
import { describe, expect, it } from 'vitest';
import { globalFlagsWithValue } from '../../../src/commands/global-options.js';
import { commandNameIn } from '../../../src/program.js';
import { SETTING_SPECS, settingFlagsFrom } from '../../../src/config/settings.js';

describe('one source for options', () => {
  it('every global flag that takes a value is skipped with its value when finding the command', () => {
    const flags = [...globalFlagsWithValue()];
    expect(flags).toEqual(expect.arrayContaining(['--profile', '-o', '--output', '--base-url', '--timeout', '--app-name', '--ownerid', '--app-version', '--public-key']));
    expect(flags).not.toContain('--json');
    for (const flag of flags) expect(commandNameIn([flag, 'sandbox', 'licenses', 'list'])).toBe('licenses');
  });

  it('every setting with a flag is read from the parsed options, under its own name', () => {
    const withFlag = SETTING_SPECS.filter((s) => 'flag' in s);
    const options = Object.fromEntries(withFlag.map((s) => [s.key, `value-of-${s.key}`]));
    expect(settingFlagsFrom({ ...options, json: true, verbose: false })).toEqual(options);
    expect(settingFlagsFrom({})).toEqual({});
  });
});
