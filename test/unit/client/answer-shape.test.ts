/**
 * A client answer is checked for its operation's shape before anything is stored: a 1.3
 * signature covers the body and its timestamp, not the request it answers, so a genuinely signed
 * `check` answer sent back to `login` must not log the session in.
 */
import { describe, expect, it } from 'vitest';
import { ok } from '../../../src/server/dispatch/reply.js';
import { clientRig, registered } from './rig.js';

/** What the sandbox answers to `check` on a logged-in session, signed with the app's real key. */
const checkAnswer = (): ReturnType<typeof ok> => ok('Session is validated.', { role: 'user' });

describe('answers of the wrong shape', () => {
  it('a signed check answer in reply to login: exit 4, one sentence, the session stays not logged in', async () => {
    const rig = await clientRig({ handlers: { login: checkAnswer } });
    await registered(rig, 'alice');
    const init = await rig.run(['client', 'init', '--new']);
    expect(init.code, init.stderr).toBe(0);
    const login = await rig.run(['client', 'login', '--username', 'alice', '--password', 'pw-123456']);
    expect(login.code, login.stderr).toBe(4);
    expect(login.stderr).toMatch(/not the expected answer to login: it has no "info"\./);
    expect(login.stderr).not.toMatch(/\n\s+at /);
    expect(rig.session()?.validated).not.toBe(true);
    expect(rig.callsOf('login')).toHaveLength(1);
  });

  it('a license answer without info is not taken as a login', async () => {
    const rig = await clientRig({ handlers: { license: checkAnswer } });
    const [key] = await rig.keys(1);
    expect((await rig.run(['client', 'init'])).code).toBe(0);
    const result = await rig.run(['client', 'license', '--key', key!]);
    expect(result.code, result.stderr).toBe(4);
    expect(rig.session()?.validated).not.toBe(true);
  });
});
