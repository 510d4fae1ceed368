/**
 * The real kactl reads `success` whatever the HTTP status (docs/design.md, "HTTP status of a
 * failure"): against a sandbox in the default hosted mode (failures 200, the seller API's 406 / 404)
 * and against one in the spec-strict mode (`--failure-status 400`), the everyday failures end the
 * same way — exit 1 with the server's sentence — on 1.3 and 1.2; a clean `blacklist check` exits 0
 * in both; an empty list is an empty list; an unknown seller key is exit 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const HWID = 'e2e-status-hwid-0000-0000-0001';
const PASSWORD = 'pw-e2e-status-123';
/** Many spawned kactl runs per test: room for a loaded two-core machine. */
const SLOW = 120_000;

for (const mode of ['hosted', 'spec-strict'] as const) {
  describe(`kactl against a ${mode} sandbox`, () => {
    let sb: E2ESandbox;

    beforeAll(async () => {
      sb = await startE2ESandbox({ args: mode === 'hosted' ? [] : ['--failure-status', '400'] });
      await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
    }, SLOW);
    afterAll(async () => {
      await sb.stop();
    });

    for (const api of ['1.3', '1.2'] as const) {
      it(`client ${api}: a wrong password, an unknown key and a missing variable exit 1 with the message; a clean HWID is not blacklisted`, async () => {
        await sb.ok(['profile', 'add', 'sandbox', '--api', api]);
        const username = `user${api.replace('.', '')}`;
        const key = (await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '30'])).stdout.trim();
        await sb.ok(['client', 'init', '--new']);
        await sb.ok(['client', 'register', '--username', username, '--key', key, '--password-stdin'], { input: PASSWORD });

        const wrong = await sb.kactl(['client', 'login', '--username', username, '--password-stdin'], { input: 'not-it' });
        expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringContaining('Password does not match.')]);
        await sb.ok(['client', 'init', '--new']);
        const unknown = await sb.kactl(['client', 'license', '--key', 'NO-SUCH-KEY', '--verbose']);
        expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('Invalid license key')]);
        expect(unknown.stderr).toContain(`/api/${api}/`);
        expect(unknown.stderr).toContain(mode === 'hosted' ? '← 200' : '← 400');

        await sb.ok(['client', 'init', '--new']);
        await sb.ok(['client', 'login', '--username', username, '--password-stdin'], { input: PASSWORD });
        const missing = await sb.kactl(['client', 'global-var', 'get', 'no-such-var']);
        expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('Variable not found.')]);
        const clean = await sb.ok(['client', 'blacklist', 'check', '--hwid', 'some-clean-hwid-0000-0000-0001']);
        expect(clean.stdout + clean.stderr).toMatch(/not blacklisted/i);
      }, SLOW);
    }

    it('seller: a refused write exits 1, an empty list is empty, a lookup that finds nothing exits 1, an unknown key exits 3', async () => {
      const refused = await sb.kactl(['users', 'reset-hwid', 'nobody']);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('Failed to reset user!')]);
      expect(await sb.json(['webhooks', 'list'])).toEqual([]);
      const notFound = await sb.kactl(['licenses', 'verify', 'NO-SUCH-KEY']);
      expect([notFound.code, notFound.stderr]).toEqual([1, expect.stringContaining('Key Not Found')]);
      const badKey = await sb.kactl(['licenses', 'list'], { env: { KACTL_SELLER_KEY: 'b'.repeat(32) } });
      expect([badKey.code, badKey.stderr]).toEqual([3, expect.stringContaining('No application found')]);
    }, SLOW);
  });
}
