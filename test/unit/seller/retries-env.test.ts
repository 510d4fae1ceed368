/**
 * KACTL_RETRIES sets how many times a call is tried again (src/context/waits.ts): 0, what
 * `kactl sandbox exec` gives its command, answers a rate limit at once with exit 6 and one
 * request; unset keeps the default three tries; a value that is not 0 to 5 is one sentence, exit
 * 2, before any request.
 */
import { describe, expect, it } from 'vitest';
import { fakeSeller, json } from './helpers.js';

const LIMITED = () => json({ success: false, message: 'Seller key used too frequently! Try again in 1 minute.' }, 429, { 'retry-after': '1' });

describe('KACTL_RETRIES', () => {
  it('0: a rate-limited call is not tried again (exit 6, one request, no wait)', async () => {
    const seller = await fakeSeller({ fetchallkeys: LIMITED });
    const { code, stderr } = await seller.run(['licenses', 'list'], { env: { KACTL_RETRIES: '0', KACTL_SELLER_RATE: '0' } });
    expect(code, stderr).toBe(6);
    expect(stderr).toContain('error: Rate limited, and no retries are allowed. Server said: Seller key used too frequently!');
    expect(stderr).toContain('KACTL_RETRIES=0 (what kactl sandbox exec sets for its command) lets kactl try only once');
    expect(stderr).not.toContain('trying again');
    expect(seller.sent('fetchallkeys')).toHaveLength(1);
  });

  it('1: one retry after the wait the server asked for', async () => {
    const seller = await fakeSeller({ fetchallkeys: LIMITED });
    const { code, stderr } = await seller.run(['licenses', 'list'], { env: { KACTL_RETRIES: '1', KACTL_SELLER_RATE: '0' } });
    expect(code, stderr).toBe(6);
    expect(stderr).toContain('trying again in 1 s (try 2 of 2)');
    expect(seller.sent('fetchallkeys')).toHaveLength(2);
  });

  it('refuses a value that is not a whole number from 0 to 5, before any request', async () => {
    const seller = await fakeSeller({}, { unused: true });
    for (const value of ['many', '-1', '6', '1.5']) {
      const { code, stderr } = await seller.run(['licenses', 'list'], { env: { KACTL_RETRIES: value } });
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`error: KACTL_RETRIES: give a whole number of retries from 0 to 5, not "${value}".`);
    }
    expect(seller.sent()).toEqual([]);
  });
});
