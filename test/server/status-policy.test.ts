/**
 * Status policy (docs/design.md, "HTTP status of a failure"). By default the sandbox answers as the
 * hosted service: a business failure is HTTP 200 with `success:false` on both client APIs, and the
 * seller API keeps the hosted statuses (200, 406 for an empty list, 404 for an unknown seller key).
 * Official SDKs depend on it (the C# SDK exits on a non-2xx `checkblacklist` answer). The
 * spec-strict mode, `failureStatus: 400`, answers the same failures 400 with the same bodies.
 */
import { describe, expect, it } from 'vitest';
import type { ApiVersion } from '../../src/server/domain/rows.js';
import { startTestSandbox, type HttpResult, type TestSandbox, type TestSandboxOptions } from '../helpers/sandbox.js';
import { HWID, OTHER_HWID, init12, registerUser } from './support/client-fixtures.js';

interface ClientFailure {
  readonly what: string;
  readonly res: HttpResult;
  readonly message: string;
}

/** The everyday failures a protected program meets, on one API version, over real HTTP. */
async function everydayFailures(sb: TestSandbox, api: ApiVersion): Promise<ClientFailure[]> {
  const options = api === '1.2' ? ({ api, method: 'POST' } as const) : ({ api } as const);
  const open = (): Promise<string> => (api === '1.2' ? init12(sb) : sb.init());
  const username = `user${api.replace('.', '')}`;
  const { pass } = await registerUser(sb, { username });
  const wrongPassword = await sb.client('login', { sessionid: await open(), username, pass: `${pass}!`, hwid: HWID }, options);
  const unknownKey = await sb.client('license', { sessionid: await open(), key: 'NO-SUCH-KEY', hwid: HWID }, options);
  const loggedIn = await open();
  expect((await sb.client('login', { sessionid: loggedIn, username, pass, hwid: HWID }, options)).json.success).toBe(true);
  const missingVariable = await sb.client('var', { sessionid: loggedIn, varid: 'no-such-var' }, options);
  const notBlacklisted = await sb.client('checkblacklist', { sessionid: loggedIn, hwid: OTHER_HWID }, options);
  return [
    { what: 'wrong password', res: wrongPassword, message: 'Password does not match.' },
    { what: 'unknown license key', res: unknownKey, message: 'Invalid license key' },
    { what: 'missing variable', res: missingVariable, message: 'Variable not found.' },
    { what: 'checkblacklist of a clean HWID', res: notBlacklisted, message: 'Client is not blacklisted' },
  ];
}

function expectStatus(results: readonly ClientFailure[], status: number): void {
  for (const { what, res, message } of results) {
    expect(res.status, `${what}: ${res.text}`).toBe(status);
    expect(res.json, what).toMatchObject({ success: false, message });
  }
}

async function sellerFailures(options: TestSandboxOptions): Promise<Array<{ res: HttpResult; message: string }>> {
  const sb = await startTestSandbox(options);
  return [
    { res: await sb.seller('del', { key: 'NOPE' }), message: 'Failed to delete license!' },
    { res: await sb.seller('resetuser', { user: 'nobody' }), message: 'Failed to reset user!' },
    { res: await sb.seller('nosuchtype'), message: "Type doesn't exist" },
    { res: await sb.seller('fetchallkeys'), message: 'No keys found' },
    { res: await sb.seller('verify', { key: 'NOPE' }), message: 'Key Not Found' },
    { res: await sb.seller('getvar', { user: 'nobody', var: 'v' }), message: 'Variable not found for user' },
    { res: await sb.seller('fetchallkeys', { sellerkey: 'b'.repeat(32) }), message: 'No application found' },
  ];
}

describe('hosted mode (the default)', () => {
  for (const api of ['1.3', '1.2'] as const) {
    it(`answers a failed login, an unknown key, a missing variable and a clean checkblacklist 200 with success:false on ${api}`, async () => {
      const sb = await startTestSandbox();
      expectStatus(await everydayFailures(sb, api), 200);
    });
  }

  it('answers malformed client requests 200 as the genuine server does: no type, unknown app, no ownerid, old version', async () => {
    const sb = await startTestSandbox();
    for (const api of ['1.3', '1.2'] as const) {
      expect((await sb.client(undefined, {}, { api })).status).toBe(200);
      expect((await sb.client('bogus', {}, { api })).status).toBe(200);
      const unknownApp = await sb.client('init', { name: 'nope' }, { api });
      expect([unknownApp.status, unknownApp.text]).toEqual([200, 'KeyAuth_Invalid']);
      expect((await sb.client('init', { ownerid: undefined }, { api })).status).toBe(200);
      expect((await sb.client('check', { sessionid: 'x' }, { api })).status).toBe(200);
    }
    const invalidver = await sb.client('init', { ver: '0.0' });
    expect(invalidver.status).toBe(200);
    expect(invalidver.json).toMatchObject({ success: false, message: 'invalidver' });
  });

  it('answers seller failures with the hosted statuses: 200, 406 for nothing found, 404 for an unknown seller key or user variable', async () => {
    const statuses = (await sellerFailures({})).map(({ res, message }) => {
      expect(res.json).toEqual({ success: false, message });
      return res.status;
    });
    expect(statuses).toEqual([200, 200, 200, 406, 406, 404, 404]);
    const sb = await startTestSandbox();
    expect((await sb.seller('x', { sellerkey: 'short' })).status).toBe(200);
    expect((await sb.seller(undefined)).status).toBe(200);
  });

  it('never answers a business failure 400', async () => {
    const sb = await startTestSandbox();
    expect((await sb.seller('add', { expiry: 'soon' })).status).toBe(200);
    expect((await sb.seller('addWhite', { format: 'text' })).status).toBe(200);
  });
});

describe('spec-strict mode (failureStatus 400)', () => {
  for (const api of ['1.3', '1.2'] as const) {
    it(`answers the same failures 400, bodies unchanged, on ${api}`, async () => {
      const sb = await startTestSandbox({ failureStatus: 400 });
      expectStatus(await everydayFailures(sb, api), 400);
    });
  }

  it('answers malformed client requests 400', async () => {
    const sb = await startTestSandbox({ failureStatus: 400 });
    expect((await sb.client(undefined)).status).toBe(400);
    expect((await sb.client('init', { name: 'nope' })).status).toBe(400);
    expect((await sb.client('init', { ownerid: undefined }, { api: '1.2' })).status).toBe(400);
    expect((await sb.client('init', { ver: '0.0' })).status).toBe(400);
  });

  it('answers every seller failure 400, the hosted 404 and 406 included', async () => {
    for (const { res, message } of await sellerFailures({ failureStatus: 400 })) {
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual({ success: false, message });
    }
  });
});

describe('both modes', () => {
  it('keep transport errors at their own status', async () => {
    for (const failureStatus of [200, 400] as const) {
      const sb = await startTestSandbox({ failureStatus });
      expect((await sb.request('/api/1.3/?x=%zz')).status).toBe(400);
      expect((await sb.request('/nope')).status).toBe(404);
    }
  });

  it('refuse a failureStatus other than 200 or 400', async () => {
    await expect(startTestSandbox({ failureStatus: 404 as 400 })).rejects.toThrow(/^failureStatus must be 200 or 400\.$/);
  });
});
