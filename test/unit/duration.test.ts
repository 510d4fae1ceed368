/**
 * One duration syntax (23.11): flags, prompts, `--timeout`, state and flows files all read
 * `2w`, `30d`, `12h`, `90m`, `45s` and a bare number in the place's own unit, through
 * src/util/duration.ts.
 */
import { describe, expect, it } from 'vitest';
import { durationHint, fractionalAmount, parseDuration } from '../../src/util/duration.js';
import { durationDays } from '../../src/state/load.js';
import { parseDurationSeconds } from '../../src/commands/global-options.js';
import { stateProblems } from '../../src/state/check.js';

describe('parseDuration', () => {
  it.each([
    ['30d', 'seconds', 2_592_000],
    ['2w', 'days', 1_209_600],
    ['12h', 'days', 43_200],
    ['90m', 'seconds', 5400],
    ['45s', 'days', 45],
    ['500ms', 'seconds', 0.5],
    ['0.5d', 'seconds', 43_200],
    ['30', 'days', 2_592_000],
    ['3600', 'seconds', 3600],
    ['1.5', 'minutes', 90],
  ] as const)('%s (bare: %s) is %d s', (raw, bare, seconds) => {
    expect(parseDuration(raw, bare)).toBe(seconds);
  });

  it('refuses what is not a duration, in one sentence that names the bare unit', () => {
    for (const raw of ['soon', '30 days', '1d12h', 'd', '']) expect(parseDuration(raw, 'days'), raw).toBeUndefined();
    expect(durationHint('days')).toBe('Give a number of days or a duration such as 45s, 90m, 12h, 30d or 2w.');
  });

  it('sends fractions of a day exact to the second', () => {
    expect(fractionalAmount(43_200, 'days')).toBe('0.5');
    expect(Number(fractionalAmount(1, 'days')) * 86_400).toBeGreaterThanOrEqual(1);
  });

  it('--timeout, state files and flows read the same forms', () => {
    expect(parseDurationSeconds('2w')).toBe(1_209_600);
    expect(() => parseDurationSeconds('0')).toThrow(/Give a number of seconds or a duration/);
    expect(durationDays('2w')).toBe(14);
    expect(stateProblems({ licenses: [{ count: 1, expiry: '2w' }], users: [{ username: 'a', subscription: 'default', expiry: '90m' }] })).toEqual([]);
  });
});
