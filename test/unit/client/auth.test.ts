import { describe, expect, it } from 'vitest';
import { readMachineId } from '../../../src/util/machine-id.js';
import { UPGRADE_LOGS_NO_ONE_IN } from '../../../src/commands/client/upgrade.js';
import { clientRig, registered, RIG_HWID } from './rig.js';

const PASSWORD = 'pw-123456';

describe('register, login, license', () => {
  it('sends the wire names, marks the session as the user\'s, and shows the subscriptions', async () => {
    const rig = await clientRig();
    const [key] = await rig.keys(1);
    await rig.run(['client', 'init']);
    const reg = await rig.run(['client', 'register', '--username', 'alice', '--key', key!, '--email', 'alice@example.com', '--password-stdin'], { stdin: `${PASSWORD}\n` });
    expect(reg.code, reg.stderr).toBe(0);
    expect(rig.callsOf('register')[0]!.params).toMatchObject({ username: 'alice', pass: PASSWORD, key, email: 'alice@example.com', hwid: RIG_HWID });
    expect(rig.session()).toMatchObject({ user: 'alice', validated: true });
    // Piped: the user's fields, then one subscription row (name, level, ISO expiry, seconds left).
    expect(reg.stdout).toMatch(/^username\talice$/m);
    expect(reg.stdout).toMatch(/^default\t1\t\d{4}-\d\d-\d\dT[\d:]+Z\t\d+$/m);

    const login = await rig.run(['client', 'login', '--email', 'alice@example.com', '--password', PASSWORD, '--json']);
    expect(login.code, login.stderr).toBe(0);
    expect(rig.callsOf('loginEmail')[0]!.params).toMatchObject({ email: 'alice@example.com', pass: PASSWORD, hwid: RIG_HWID });
    expect(JSON.parse(login.stdout)).toMatchObject({ success: true, info: { username: 'alice' } });
  });

  it('shows the subscriptions as a table on a terminal', async () => {
    const rig = await clientRig();
    await registered(rig);
    const login = await rig.run(['client', 'login', '--username', 'alice', '--password', PASSWORD], { stdoutTTY: true, stderrTTY: true });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/SUBSCRIPTION\s+LEVEL\s+EXPIRES\s+TIME LEFT/);
    expect(login.stdout).toMatch(/default\s+1\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+29d 23h/);
    expect(login.stderr).toContain('✓ Logged in!');
  });

  it('never prints the password, even with --verbose', async () => {
    const rig = await clientRig();
    await registered(rig);
    const login = await rig.run(['client', 'login', '--username', 'alice', '--password-stdin', '--verbose'], { stdin: PASSWORD });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('type=login');
    expect(login.stdout + login.stderr).not.toContain(PASSWORD);
    expect(login.stdout + login.stderr).not.toContain(rig.session()!.id);
  });

  it('license: the first use registers a user named after the key, later uses log it in', async () => {
    const rig = await clientRig();
    const [key] = await rig.keys(1);
    await rig.run(['client', 'init']);
    const first = await rig.run(['client', 'license', '--key', key!, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).info.username).toBe(key);
    await rig.run(['client', 'init', '--new']);
    const later = await rig.run(['client', 'license', '--key', key!]);
    expect(later.code, later.stderr).toBe(0);
    expect(rig.session()).toMatchObject({ user: key, validated: true });
  });

  it('a wrong password exits 1 with the server\'s message', async () => {
    const rig = await clientRig();
    await registered(rig);
    const result = await rig.run(['client', 'login', '--username', 'alice', '--password', 'nope']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Password does not match.');
  });
});

describe('HWID', () => {
  it('sends --hwid over the profile\'s, and none with --hwid ""', async () => {
    const rig = await clientRig();
    await registered(rig);
    await rig.run(['client', 'login', '--username', 'alice', '--password', PASSWORD, '--hwid', `${RIG_HWID}-extra`]);
    expect(rig.callsOf('login').at(-1)!.params.hwid).toBe(`${RIG_HWID}-extra`);
    await rig.run(['client', 'blacklist', 'check', '--hwid', '']);
    expect(rig.callsOf('checkblacklist').at(-1)!.params).not.toHaveProperty('hwid');
  });

  it("defaults to this machine's identifier when the profile has none", async () => {
    const rig = await clientRig({ profile: { hwid: undefined } });
    const machine = await readMachineId();
    await rig.run(['client', 'init']);
    const result = await rig.run(['client', 'blacklist', 'check']);
    expect(result.code, result.stderr).toBe(0);
    if (machine === undefined) {
      expect(result.stderr).toContain("Could not read this machine's identifier");
      expect(rig.callsOf('checkblacklist')[0]!.params).not.toHaveProperty('hwid');
    } else {
      expect(rig.callsOf('checkblacklist')[0]!.params.hwid).toBe(machine);
    }
  });
});

describe('upgrade', () => {
  it('redeems the key, leaves the session as it was, and says that no one was logged in', async () => {
    const rig = await clientRig();
    await registered(rig);
    const [key] = await rig.keys(1);
    await rig.run(['client', 'init', '--new']);
    const result = await rig.run(['client', 'upgrade', '--username', 'alice', '--key', key!]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Upgraded successfully');
    expect(result.stderr).toContain(UPGRADE_LOGS_NO_ONE_IN);
    expect(rig.callsOf('upgrade')[0]!.params).toMatchObject({ username: 'alice', key });
    expect(rig.session()?.validated).toBeUndefined();
    expect((await rig.run(['client', 'check'])).code).toBe(3);
  });
});

describe('two-factor authentication', () => {
  it('without a terminal, the first enable call prints the secret and URI; a login without --code says to add it', async () => {
    const rig = await clientRig();
    await registered(rig);
    const first = await rig.run(['client', '2fa', 'enable']);
    expect(first.code, first.stderr).toBe(0);
    const secret = /^secret\t([A-Z2-7]+)$/m.exec(first.stdout)?.[1];
    expect(secret).toMatch(/^[A-Z2-7]{40}$/);
    expect(first.stdout).toMatch(new RegExp(`^uri\totpauth://totp/alice\\?secret=${secret}&issuer=KeyAuth$`, 'm'));
    expect(first.stderr).toContain('kactl client 2fa enable --code');

    const { totpCode } = await import('../../../src/server/domain/twofa.js');
    const now = () => Math.floor(Date.now() / 1000);
    const wrong = await rig.run(['client', '2fa', 'enable', '--code', totpCode(secret!, now() - 600)]);
    expect(wrong.code).toBe(1);
    const ok = await rig.run(['client', '2fa', 'enable', '--code', totpCode(secret!, now())]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('Two-factor authentication is on');

    const noCode = await rig.run(['client', 'login', '--username', 'alice', '--password', PASSWORD]);
    expect(noCode.code).toBe(1);
    expect(noCode.stderr).toContain('2FA code required.');
    expect(noCode.stderr).toContain('add --code');
    const withCode = await rig.run(['client', 'login', '--username', 'alice', '--password', PASSWORD, '--code', totpCode(secret!, now())]);
    expect(withCode.code, withCode.stderr).toBe(0);
    expect(rig.callsOf('login').at(-1)!.params.code).toMatch(/^\d{6}$/);

    const off = await rig.run(['client', '2fa', 'disable', '--code', totpCode(secret!, now())]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toContain('Two-factor authentication is off');
  });

  it('--json prints the first call\'s answer as the server sent it', async () => {
    const rig = await clientRig();
    await registered(rig);
    const first = await rig.run(['client', '2fa', 'enable', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ success: true, '2fa': { secret_code: expect.stringMatching(/^[A-Z2-7]{40}$/), QRCode: expect.stringMatching(/^otpauth:/) } });
  });
});
