/**
 * Flows steps are checked when the file loads (src/flows/step-check.ts): an unknown client or
 * seller operation, or a client parameter the operation does not take, is refused with the file,
 * the line, one sentence and the nearest name (exit 2); the CLI's own commands are accepted
 * beside the wire types.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../src/errors.js';
import { checkFlowSteps } from '../../../src/flows/step-check.js';
import { parseText } from '../../../src/state/load.js';
import { FLOWS_SCHEMA } from '../../../src/state/schema.js';

/** The problem `checkFlowSteps` finds in a file of these steps (one flow), or undefined. */
function problem(steps: string): string | undefined {
  const loaded = parseText('f.yaml', `flows:\n  - name: x\n    steps:\n${steps}`, FLOWS_SCHEMA);
  try {
    checkFlowSteps(loaded);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    return (error as Error).message;
  }
}

describe('client steps', () => {
  it('refuses an operation nobody has, with the line and the nearest name', () => {
    expect(problem('      - client: init\n      - client: regster\n')).toBe('f.yaml, line 5: No client operation is called "regster". Did you mean register?');
    expect(problem('      - client: loginemail\n')).toBe('f.yaml, line 4: No client operation is called "loginemail". Did you mean loginEmail?');
    expect(problem('      - client: 2fa enabel\n')).toBe('f.yaml, line 4: No client operation is called "2fa enabel". Did you mean 2fa enable?');
    expect(problem('      - client: frobnicate\n')).toBe(
      'f.yaml, line 4: No client operation is called "frobnicate": name one by its wire type (login) or its kactl command (2fa enable); kactl schema flows lists them.',
    );
  });

  it('refuses a parameter the operation does not take, pointing at its line', () => {
    const steps = '      - client: login\n        with:\n          username: alice\n          password: secret-1\n';
    expect(problem(steps)).toBe('f.yaml, line 7: The client operation login has no parameter "password". Did you mean pass?');
    expect(problem('      - client: chatsend\n        with: { channel: lobby, mesage: hi }\n')).toBe('f.yaml, line 5: The client operation chatsend has no parameter "mesage". Did you mean message?');
    expect(problem('      - client: upgrade\n        with: { user: alice, key: K }\n')).toBe('f.yaml, line 5: The client operation upgrade has no parameter "user". Did you mean username?');
    expect(problem('      - client: var\n        with: { colour: blue }\n')).toBe('f.yaml, line 5: The client operation var has no parameter "colour": it takes varid.');
    expect(problem('      - client: logout\n        with: { now: yes }\n')).toBe('f.yaml, line 5: The client operation logout takes no parameters, so not "now".');
    expect(problem('      - client: check\n        with: { sessionid: ABC }\n')).toBe('f.yaml, line 5: The parameter "sessionid" is added by kactl to every client call: leave it out of with.');
  });

  it('checks a kactl command\'s parameters as its operation\'s', () => {
    expect(problem('      - client: var set\n        with: { var: theme, data: dark }\n')).toBeUndefined();
    expect(problem('      - client: var set\n        with: { var: theme, value: dark }\n')).toBe('f.yaml, line 5: The client operation setvar has no parameter "value": it takes var, data.');
  });

  it('counts the other problems', () => {
    expect(problem('      - client: regster\n      - client: lgin\n')).toBe('f.yaml, line 4: No client operation is called "regster". Did you mean register? (and 1 more problem)');
  });

  it('accepts wire types and the CLI\'s own commands', () => {
    const steps = ['init', 'login', '2faenable', '2fa enable', '2fa disable', 'var set', 'var get', 'global-var get', 'chat send', 'chat read', 'magic-link', 'magic-link wait', 'email-code verify', 'stats', 'online', 'blacklist check']
      .map((name) => `      - client: ${name}\n`)
      .join('');
    expect(problem(steps)).toBeUndefined();
  });
});

describe('seller steps', () => {
  it('refuses an operation nobody has, with the nearest name', () => {
    expect(problem('      - seller: licenses craete\n')).toBe('f.yaml, line 4: No seller operation is called "licenses craete". Did you mean licenses create?');
    expect(problem('      - seller: ad\n        with: { expiry: 1 }\n')).toMatch(/^f\.yaml, line 4: No seller operation is called "ad"\. Did you mean .*\badd\b.*\?$/);
  });

  it('accepts wire types and kactl commands', () => {
    expect(problem('      - seller: add\n      - seller: licenses create\n      - seller: users list\n')).toBeUndefined();
  });
});

it('the example flows file passes', () => {
  const file = path.resolve(import.meta.dirname, '../../../examples/flows.yaml');
  expect(() => checkFlowSteps(parseText(file, fs.readFileSync(file, 'utf8'), FLOWS_SCHEMA))).not.toThrow();
});
