/** The state/flows loader: schema problems and YAML errors name the line; ${VAR} and durations. */
import { describe, expect, it } from 'vitest';
import { durationDays, parseText, withEnvironment } from '../../../src/state/load.js';
import { FLOWS_SCHEMA, STATE_SCHEMA } from '../../../src/state/schema.js';
import { validate } from '../../../src/state/validate.js';

function refusal(text: string, schema = STATE_SCHEMA): string {
  try {
    parseText('f.yaml', text, schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('state file loader', () => {
  it('accepts the issue example shape, in YAML or JSON', () => {
    const yaml = parseText('f.yaml', 'app: { app-version: "1.0", hwidcheck: true }\nlicenses:\n  - { count: 5, level: 2, expiry: 7d, mask: "PRO-******", note: a }\n', STATE_SCHEMA);
    expect(yaml.value).toEqual({ app: { 'app-version': '1.0', hwidcheck: true }, licenses: [{ count: 5, level: 2, expiry: '7d', mask: 'PRO-******', note: 'a' }] });
    expect(parseText('f.json', '{"subscriptions":[{"name":"a","level":1}]}', STATE_SCHEMA).value).toEqual({ subscriptions: [{ name: 'a', level: 1 }] });
  });

  it('names the line and what was expected', () => {
    expect(refusal('subscriptions:\n  - name: a\n    level: [1]\n')).toBe('f.yaml, line 3: subscriptions[0].level: expected integer or string, found array.');
    expect(refusal('users:\n  - { username: a }\n')).toMatch(/^f\.yaml, line 2: users\[0\]: "subscription" is required \(and 1 more problem\)\.$/);
    expect(refusal('team:\n  - { role: owner, username: x }\n')).toBe('f.yaml, line 2: team[0].role: expected one of reseller, manager.');
    expect(refusal('flows:\n  - name: x\n    steps:\n      - code: sms\n', FLOWS_SCHEMA)).toBe('f.yaml, line 4: flows[0].steps[0].code: expected one of totp, from-outbox.');
    expect(refusal('app:\n  enabled: "yes"\n')).toBe('f.yaml, line 2: app.enabled: expected boolean, found string.');
    expect(refusal('subscriptions: [\n')).toMatch(/^f\.yaml, line \d: not valid YAML or JSON: /);
  });

  it('reads ${VAR} from the environment and refuses an unset one with its line', () => {
    const loaded = parseText('f.yaml', 'users:\n  - { username: a, password: "${PW}x", subscription: s, expiry: 1 }\n', STATE_SCHEMA);
    expect(withEnvironment(loaded, loaded.value, { PW: 'secret' })).toEqual({ users: [{ username: 'a', password: 'secretx', subscription: 's', expiry: 1 }] });
    expect(() => withEnvironment(loaded, loaded.value, {})).toThrow('f.yaml, line 2: ${PW} is not set in the environment.');
    expect(() => withEnvironment(loaded, loaded.value, { PW: '' })).not.toThrow();
  });

  it('reads durations as days', () => {
    expect(durationDays('30d')).toBe(30);
    expect(durationDays('12h')).toBe(0.5);
    expect(durationDays('90m')).toBe(0.0625);
    expect(durationDays('86400s')).toBe(1);
    expect(durationDays(7)).toBe(7);
    expect(durationDays('2')).toBe(2);
    expect(() => durationDays('soon')).toThrow(/not a duration/);
  });

  it('validates the subset of JSON Schema the schemas use', () => {
    expect(validate({ a: 1 }, { type: 'object', additionalProperties: false, properties: {} })).toEqual([{ path: ['a'], message: 'unknown key "a" (expected )' }]);
    expect(validate(1.5, { type: 'integer' })).toEqual([{ path: [], message: 'expected integer, found number' }]);
    expect(validate(3, { type: 'number', minimum: 5 })).toEqual([{ path: [], message: 'expected at least 5' }]);
  });
});
