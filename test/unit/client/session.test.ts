import { describe, expect, it } from 'vitest';
import { fail } from '../../../src/server/dispatch/reply.js';
import { clientRig, registered, RIG_PROFILE } from './rig.js';

describe('kactl client init', () => {
  it('stores the session, and masks its id even in --json', async () => {
    const rig = await clientRig();
    const result = await rig.run(['client', 'init', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const stored = rig.session();
    expect(stored?.id).toMatch(/.+/);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, sessionid: '***' });
    expect(result.stdout + result.stderr).not.toContain(stored!.id);
  });

  it('refuses a second init while the stored session is live (logged in or not), unless --new', async () => {
    const rig = await clientRig();
    expect((await rig.run(['client', 'init'])).code).toBe(0);
    const first = rig.session()!.id;
    const again = await rig.run(['client', 'init']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already open');
    expect(again.stderr).toContain('kactl client init --new');
    expect(rig.session()!.id).toBe(first);

    await registered(rig);
    const loggedIn = await rig.run(['client', 'init']);
    expect(loggedIn.code).toBe(2);
    expect(loggedIn.stderr).toContain('logged in as alice');

    const renewed = await rig.run(['client', 'init', '--new']);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(rig.session()!.id).not.toBe(first);
    expect(rig.session()!.user).toBeUndefined();
  });

  it('opens a new session when the stored one has ended on the server', async () => {
    const rig = await clientRig();
    await rig.run(['client', 'init']);
    const old = rig.session()!.id;
    rig.sb.store.run('DELETE FROM sessions WHERE id = ?', old);
    const result = await rig.run(['client', 'init']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('had ended');
    expect(rig.session()!.id).not.toBe(old);
  });
});

describe('kactl client whoami', () => {
  it('says whose the session is without any secret, and --check asks the server', async () => {
    const rig = await clientRig();
    await registered(rig);
    const session = rig.session()!;
    const who = await rig.run(['client', 'whoami', '--json']);
    expect(who.code, who.stderr).toBe(0);
    const record = JSON.parse(who.stdout);
    expect(record).toMatchObject({ profile: RIG_PROFILE, server: rig.sb.baseUrl, app: rig.sb.info.app.name, user: 'alice', validated: true, session: '***' });
    expect(new Date(record.initialized).getTime()).toBe(session.createdAt);
    expect(who.stdout).not.toContain(session.id);
    expect(who.stdout).not.toContain(rig.sb.info.app.secret);

    rig.sb.store.run('UPDATE sessions SET validated = 0 WHERE id = ?', session.id);
    const checked = await rig.run(['client', 'whoami', '--check', '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ validated: false, checked: 'server' });
    expect(rig.callsOf('check').length).toBeGreaterThan(0);
  });

  it('exits 3 when there is no session, and 3 with --check when the server has ended it', async () => {
    const rig = await clientRig();
    const none = await rig.run(['client', 'whoami']);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('kactl client init');
    await rig.run(['client', 'init']);
    rig.sb.store.run('DELETE FROM sessions');
    const gone = await rig.run(['client', 'whoami', '--check']);
    expect(gone.code).toBe(3);
    expect(rig.session()).toBeUndefined();
  });
});

describe('kactl client logout and check', () => {
  it('ends the session and forgets it; a second logout is not an error', async () => {
    const rig = await clientRig();
    await registered(rig);
    expect((await rig.run(['client', 'check'])).code).toBe(0);
    const out = await rig.run(['client', 'logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(rig.session()).toBeUndefined();
    expect(rig.callsOf('logout')).toHaveLength(1);
    const again = await rig.run(['client', 'logout']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No client session');
    expect(rig.callsOf('logout')).toHaveLength(1);
  });

  it('check exits 3 on a session that is not logged in', async () => {
    const rig = await clientRig();
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'check']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('not validated');
  });

  it('logout of a session the server no longer knows forgets it and exits 0', async () => {
    const rig = await clientRig({ handlers: { logout: () => fail('Session not found. If you get this frequently, ask the developer to use the latest example code') } });
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'logout']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('already ended');
    expect(rig.session()).toBeUndefined();
  });
});
