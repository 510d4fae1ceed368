/**
 * `kactl demo` (what `npm start` runs) with the built binary and no terminal, as CI runs it:
 * exit 0, every step of the story shown as the command a user would type with its output, the
 * password never printed, and nothing left behind in the temporary folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('kactl demo', () => {
  it('walks the whole story against its own sandbox and exits 0', async () => {
    const home = tempDir('kactl-demo-home-');
    const tmp = tempDir('kactl-demo-tmp-');
    const result = await runKactl(['demo'], { configDir: home, env: { TMPDIR: tmp }, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);

    const steps = result.stdout.split('\n').filter((line) => line.startsWith('$ kactl ')).map((line) => line.slice(2).split(' ').slice(0, 4).join(' '));
    expect(steps).toEqual([
      'kactl licenses create --amount',
      'kactl chats create --name',
      'kactl client init',
      'kactl client register --username',
      'kactl client login --username',
      'kactl client upgrade --username',
      'kactl client var set',
      'kactl client var get',
      'kactl client chat send',
      'kactl client chat read',
      'kactl client 2fa enable',
      'kactl client 2fa enable',
      'kactl client logout',
      'kactl client init',
      'kactl client login --username',
      'kactl client whoami',
      'kactl client logout',
    ]);
    // What the steps printed: the variable, the chat message, the 2FA result, the login with a code.
    expect(result.stdout).toMatch(/\$ kactl client var get theme\ndark\n/);
    expect(result.stdout).toMatch(/\talice\tHello from the kactl demo!/);
    expect(result.stdout).toContain('Two-factor authentication is on');
    expect(result.stdout).toMatch(/\$ kactl client login --username alice --password-stdin --code \d{6} < alice-password.txt\nLogged in!/);
    expect(result.stdout).toContain('Upgrade logs no one in');
    expect(result.stdout).not.toContain('correct-horse-battery-staple');
    // It points only at what exists after it: no password file, no demo profile to reuse.
    expect(result.stdout).toContain('its sandbox and profile are gone now. To try it yourself: kactl sandbox start');
    expect(result.stdout).not.toMatch(/password is in alice-password\.txt|saved as profile/);
    // The temporary config folder is gone. (The code cache bin/kactl.js turns on stays in the temp
    // folder, in bin/cache-folder.js's folder for this user and Node, shared by runs.)
    const codeCache = /^kactl-code-cache-.+$/;
    expect(fs.readdirSync(tmp).filter((name) => !codeCache.test(name))).toEqual([]);
  }, 60_000);

  it('is what npm start runs', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node bin/kactl.js demo');
  });
});
