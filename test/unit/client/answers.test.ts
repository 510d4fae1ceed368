import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../../src/errors.js';
import { refuseDisguisedFailure } from '../../../src/commands/client/answers.js';
import { magicState } from '../../../src/commands/client/magic-wait.js';
import { subscriptionRows } from '../../../src/commands/client/user-view.js';

describe('answers that lie about success', () => {
  it('turns the 1.2 source\'s success:true refusals into failures', () => {
    for (const [type, message] of [
      ['setvar', 'No variable data provided'],
      ['setvar', 'Variable data must be 500 characters or less'],
      ['2faenable', 'Invalid code please try again'],
      ['2faenable', '2fa session has expired'],
      ['2fadisable', 'Invalid code please try again'],
    ] as const) {
      expect(() => refuseDisguisedFailure(type, { success: true, message }), `${type}: ${message}`).toThrow(ApiFailure);
    }
  });

  it('leaves real successes alone', () => {
    expect(() => refuseDisguisedFailure('setvar', { success: true, message: 'Successfully set variable' })).not.toThrow();
    expect(() => refuseDisguisedFailure('2faenable', { success: true, message: '2fa successfully activated' })).not.toThrow();
    expect(() => refuseDisguisedFailure('login', { success: true, message: 'Invalid code please try again' })).not.toThrow();
  });
});

describe('magicState', () => {
  it('reads the status field when the server sends one', () => {
    expect(magicState({ success: false, message: 'Magic link not approved yet', status: 'pending' })).toBe('pending');
    expect(magicState({ success: false, message: 'Magic link expired', status: 'expired' })).toBe('expired');
    expect(magicState({ success: false, message: 'Magic link already used', status: 'used' })).toBe('expired');
    expect(magicState({ success: false, message: 'No magic link was sent for this session', status: 'none' })).toBe('refused');
  });

  it('falls back to the words of the message, and to success with info for approval', () => {
    expect(magicState({ success: false, message: 'pending' })).toBe('pending');
    expect(magicState({ success: false, message: 'Waiting for approval' })).toBe('pending');
    expect(magicState({ success: false, message: 'This link has expired' })).toBe('expired');
    expect(magicState({ success: false, message: '2FA code required.' })).toBe('refused');
    expect(magicState({ success: true, message: 'Logged in!', info: { username: 'alice' } })).toBe('approved');
    expect(magicState({ success: true, message: 'pending' })).toBe('pending');
  });
});

describe('subscriptionRows', () => {
  const now = 1_800_000_000_000;
  it('counts time left from the expiry', () => {
    const rows = subscriptionRows([{ subscription: 'default', key: 'K', expiry: String(now / 1000 + 3600), timeleft: 1, level: '1' }], now);
    expect(rows).toEqual([{ subscription: 'default', level: '1', expiry: String(now / 1000 + 3600), timeleft: 3600 }]);
  });

  it('accepts the single object the 1.2 register answer sends instead of an array', () => {
    const rows = subscriptionRows({ subscription: 'default', key: 'K', expiry: String(now / 1000 + 60), timeleft: 999 }, now);
    expect(rows).toEqual([{ subscription: 'default', level: null, expiry: String(now / 1000 + 60), timeleft: 60 }]);
  });

  it('is empty for anything else', () => {
    expect(subscriptionRows(undefined, now)).toEqual([]);
    expect(subscriptionRows(['x', null], now)).toEqual([]);
  });
});
