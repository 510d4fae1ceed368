/** Status policy (docs/design.md): 200 on success, 400 on failure, or 200 for both with failureStatus 200. */
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('failureStatus', () => {
  it('answers business failures with 400 by default', async () => {
    const sb = await startTestSandbox();
    expect((await sb.client('init', { ver: '0.0' })).status).toBe(400);
    expect((await sb.client('check', { sessionid: 'x' })).status).toBe(400);
    expect((await sb.seller('nosuchtype')).status).toBe(400);
  });

  it('answers them with 200 when failureStatus is 200, success:false unchanged', async () => {
    const sb = await startTestSandbox({ failureStatus: 200 });
    const invalidver = await sb.client('init', { ver: '0.0' });
    expect(invalidver.status).toBe(200);
    expect(invalidver.json).toMatchObject({ success: false, message: 'invalidver' });
    expect((await sb.client('check', { sessionid: 'x' })).status).toBe(200);
    expect((await sb.client('bogus')).status).toBe(200);
    expect((await sb.client('init', { name: 'nope' })).status).toBe(200);
    expect((await sb.seller('nosuchtype')).status).toBe(200);
    expect((await sb.seller('x', { sellerkey: 'short' })).status).toBe(200);
    expect((await sb.client('init')).status).toBe(200);
  });

  it('keeps transport errors at their own status; rate limits answer 200 as the hosted service does', async () => {
    const sb = await startTestSandbox({ failureStatus: 200, rateLimit: true });
    expect((await sb.request('/api/1.3/?x=%zz')).status).toBe(400);
    expect((await sb.request('/nope')).status).toBe(404);
    for (let i = 0; i < 120; i++) await sb.seller('x');
    expect((await sb.seller('x')).status).toBe(200);
  });

  it('rejects a failureStatus other than 200 or 400', async () => {
    await expect(startTestSandbox({ failureStatus: 404 as 400 })).rejects.toThrow(/--failure-status must be 200 or 400/);
  });
});
