/**
 * The variables `kactl sandbox exec` gives its command are read as settings with no profile:
 * KACTL_APP_SECRET, KACTL_SELLER_RATE (a bad one is one sentence) and KACTL_CA_FILE.
 */
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';
import { UsageError } from '../../../src/errors.js';

function settings(env: Record<string, string>) {
  return resolveSettings({ flags: {}, env, profileName: { value: undefined, source: 'default' }, profile: undefined });
}

describe('settings from the environment', () => {
  it('reads the app secret, the seller rate and the certificate authority', () => {
    const resolved = settings({ KACTL_APP_SECRET: 'a'.repeat(64), KACTL_SELLER_RATE: '0', KACTL_CA_FILE: '/tmp/ca.pem' });
    expect(resolved.secret).toEqual({ value: 'a'.repeat(64), source: 'env' });
    expect(resolved.sellerRate).toEqual({ value: 0, source: 'env' });
    expect(resolved.caFile).toEqual({ value: '/tmp/ca.pem', source: 'env' });
  });

  it('refuses a seller rate that is not a whole number, in one sentence', () => {
    expect(() => settings({ KACTL_SELLER_RATE: 'fast' })).toThrow(UsageError);
    expect(() => settings({ KACTL_SELLER_RATE: 'fast' })).toThrow('KACTL_SELLER_RATE: give a whole number of seller calls a minute (0: no pacing), not "fast".');
  });
});
