/** Flow expectations: paths into answers and how values compare. */
import { describe, expect, it } from 'vitest';
import { mismatch, parsePath, valueAt } from '../../../src/flows/values.js';

describe('flow values', () => {
  it('reads fields by path', () => {
    const body = { info: { subscriptions: [{ level: '1' }] }, '2fa': { secret_code: 'S' }, keys: ['K'] };
    expect(parsePath('info.subscriptions[0].level')).toEqual(['info', 'subscriptions', 0, 'level']);
    expect(valueAt(body, 'info.subscriptions[0].level')).toBe('1');
    expect(valueAt(body, '2fa.secret_code')).toBe('S');
    expect(valueAt(body, 'keys[0]')).toBe('K');
    expect(valueAt(body, 'info.nothing[3]')).toBeUndefined();
  });

  it('compares text, /regex/flags, numbers as text, and objects whole', () => {
    expect(mismatch('/expired|invalid/i', 'Key EXPIRED')).toBeUndefined();
    expect(mismatch('/expired/', 'fine')).toBe('does not match');
    expect(mismatch(1, '1')).toBeUndefined();
    expect(mismatch(true, false)).toBe('differs');
    expect(mismatch('x', undefined)).toBe('is missing');
    expect(mismatch({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(mismatch(null, undefined)).toBeUndefined();
  });
});
