/**
 * Issue 21 item 10: a value from a request used as a key of a lookup table found the members of
 * Object.prototype (`?done=constructor` made the panel answer 500: panel-requests.test.ts). The
 * seller API's refusal tables are looked up by name too; they answer only for their own entries.
 */
import { describe, expect, it } from 'vitest';
import { paramMessages } from '../../../src/server/seller/param-messages.js';
import { rangeProblem } from '../../../src/server/seller/param-ranges.js';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

describe('lookup tables answer only for their own entries', () => {
  it('the range rules of a type know no parameter named like a prototype member', () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(rangeProblem('add', name, '-1'), name).toBeUndefined();
      expect(rangeProblem(name, 'expiry', '-1'), name).toBeUndefined();
    }
    expect(rangeProblem('add', 'expiry', '-1')).toBe('Invalid parameter: expiry must be greater than zero');
  });

  it('the refusal wordings of a type know no parameter named like a prototype member', () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(paramMessages('addAccount', name), name).toEqual({});
      expect(paramMessages(name, 'role'), name).toEqual({});
    }
    expect(paramMessages('addAccount', 'role').missing).toBe('Role options are Manager or Reseller!');
  });
});
