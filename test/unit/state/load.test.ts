/** The state/flows loader: schema problems and YAML errors name the line; !env, $$ and durations. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf, UsageError } from '../../../src/errors.js';
import { durationDays, envName, loadFile, MAX_FILE_BYTES, parseText } from '../../../src/state/load.js';
import { tempDir } from '../../helpers/temp-dir.js';
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
    expect(refusal('users:\n  - { usrname: a }\n')).toMatch(/^f\.yaml, line 2: users\[0\]: "username" is required \(and 1 more problem\)\.$/);
    expect(refusal('team:\n  - { role: owner, username: x }\n')).toBe('f.yaml, line 2: team[0].role: expected one of reseller, manager.');
    expect(refusal('flows:\n  - name: x\n    steps:\n      - code: sms\n', FLOWS_SCHEMA)).toBe('f.yaml, line 4: flows[0].steps[0].code: expected one of totp, from-outbox.');
    expect(refusal('app:\n  enabled: "yes"\n')).toBe('f.yaml, line 2: app.enabled: expected boolean, found string.');
    expect(refusal('subscriptions: [\n')).toMatch(/^f\.yaml, line \d: not valid YAML or JSON: /);
  });

  it('reads !env NAME from the environment, marks what it read, and refuses an unset one with its line', () => {
    const text = 'users:\n  - { username: a, password: !env PW, subscription: s, expiry: 1 }\n';
    const loaded = parseText('f.yaml', text, STATE_SCHEMA, { env: { PW: 'secret' }, stateAt: [[]] });
    expect(JSON.parse(JSON.stringify(loaded.value))).toEqual({ users: [{ username: 'a', password: 'secret', subscription: 's', expiry: 1 }] });
    const [user] = loaded.value.users as object[];
    expect(envName(user!, 'password')).toBe('PW');
    expect(envName(user!, 'username')).toBeUndefined();
    expect(() => parseText('f.yaml', text, STATE_SCHEMA, { env: {}, stateAt: [[]] })).toThrow('f.yaml, line 2: !env PW: PW is not set in the environment.');
    expect(() => parseText('f.yaml', 'users:\n  - { username: !env "a b" }\n', STATE_SCHEMA, { env: {} })).toThrow(/line 2: not valid YAML or JSON: !env needs the name of an environment variable/);
    expect(() => parseText('f.yaml', 'app: !secret x\n', STATE_SCHEMA)).toThrow(/line 1: not valid YAML or JSON: Unresolved tag: !secret/);
  });

  it('never reads ${…} in a state body (21.2): it is refused with its line; $$ stands for $', () => {
    const env = { KACTL_SELLER_KEY: 'the-seller-key' };
    const planted = 'uservars:\n  - { username: eve, name: note, value: "${KACTL_SELLER_KEY}" }\n';
    expect(() => parseText('f.yaml', planted, STATE_SCHEMA, { env, stateAt: [[]] })).toThrow('f.yaml, line 2: "${KACTL_SELLER_KEY}" is not read from the environment: write the whole value as !env KACTL_SELLER_KEY, or $${…} for the text itself.');
    const escaped = parseText('f.yaml', 'uservars:\n  - { username: eve, name: note, value: "$${KACTL_SELLER_KEY} costs $5, $$$$" }\n', STATE_SCHEMA, { env, stateAt: [[]] });
    expect((escaped.value.uservars as { value: string }[])[0]!.value).toBe('${KACTL_SELLER_KEY} costs $5, $$');
    // Outside a state body (a flows file's steps) text is left to the flow runner.
    expect(parseText('f.yaml', 'flows:\n  - name: x\n    steps: [{ client: init, with: { k: "${saved}" } }]\n', FLOWS_SCHEMA, { env, stateAt: [['seed']] }).value.flows).toBeDefined();
    expect(() => parseText('f.yaml', 'seed: { uservars: [{ username: e, name: n, value: "${X}" }] }\nflows: []\n', FLOWS_SCHEMA, { env, stateAt: [['seed']] })).toThrow(/line 1: "\$\{X\}" is not read from the environment/);
  });

  it('refuses what apply cannot mean: .nan, .inf, zero and negative durations, non-http URLs (20.10, 21.17)', () => {
    const licence = (expiry: string) => refusal(`licenses:\n  - { key: K, level: 1, expiry: ${expiry} }\n`);
    expect(licence('.nan')).toBe('f.yaml, line 2: licenses[0].expiry: expected string or number, found .nan.');
    expect(licence('-.inf')).toBe('f.yaml, line 2: licenses[0].expiry: expected string or number, found -.inf.');
    expect(licence('-3')).toBe('f.yaml, line 2: licenses[0].expiry: expected more than 0.');
    expect(licence('0d')).toMatch(/^f\.yaml, line 2: licenses\[0\]\.expiry: "0d" is not valid here/);
    expect(licence('1e+300d')).toMatch(/"1e\+300d" is not valid here/);
    expect(refusal('webhooks:\n  - { id: w, url: "ftp://x.test/y" }\n')).toMatch(/^f\.yaml, line 2: webhooks\[0\]\.url: "ftp:\/\/x\.test\/y" is not valid here/);
    expect(refusal('subscriptions:\n  - { name: s, level: 0 }\n')).toBe('f.yaml, line 2: subscriptions[0].level: expected at least 1.');
  });

  it('takes only its own keys: constructor, __proto__ and toString are unknown keys, not inherited matches (21.17)', () => {
    expect(refusal('constructor: 1\n')).toMatch(/^f\.yaml, line 1: constructor: unknown key "constructor"/);
    expect(refusal('users:\n  - { username: u, subscription: s, expiry: 1d, __proto__: { x: 1 } }\n')).toMatch(/^f\.yaml, line 2: users\[0\]\.__proto__: unknown key "__proto__"/);
    expect(refusal('app:\n  toString: x\n')).toMatch(/^f\.yaml, line 2: app\.toString: unknown key "toString"/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers an alias bomb with exit 2 and a line, not an unexpected failure (21.17)', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...['b', 'c', 'd', 'e'].map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcd'[i]}`).join(', ')}]`)].join('\n');
    let error: unknown;
    try {
      parseText('f.yaml', bomb, STATE_SCHEMA);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeOf(error as UsageError)).toBe(2);
    expect((error as UsageError).message).toMatch(/^f\.yaml, line 2: not valid YAML or JSON: .*resource exhaustion/);
  });

  it('refuses a file over the size cap before reading it (21.17: 100 MB ran out of memory)', () => {
    const file = path.join(tempDir(), 'big.yaml');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_FILE_BYTES + 1);
    expect(() => loadFile(file, STATE_SCHEMA)).toThrow(`${file} is 4.00 MB; kactl reads state and flows files of at most 4 MB (split it into several files).`);
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
