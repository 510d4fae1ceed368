/**
 * The admin clock, GET/POST /sandbox/clock: it moves the domain clock (sessions, subscriptions,
 * links, codes) and only that, either way; signature timestamps stay real; the offset survives a
 * restart and offset=0 resets it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { HWID, registerUser, SESSION_NOT_FOUND } from './support/client-fixtures.js';

describe('/sandbox/clock', () => {
  it('wants the admin token', async () => {
    const sb = await startTestSandbox();
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${'0'.repeat(64)}` }, { authorization: sb.info.adminToken }];
    for (const headers of attempts) {
      const get = await sb.request('/sandbox/clock', { headers });
      expect(get.status).toBe(401);
      expect(get.json).toMatchObject({ success: false });
      expect(get.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const post = await sb.request('/sandbox/clock', { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'advance=60' });
      expect(post.status).toBe(401);
    }
    expect((await sb.clock()).offset).toBe(0);
    expect((await sb.request('/sandbox/clock', { method: 'PUT', headers: { authorization: `Bearer ${sb.info.adminToken}` } })).status).toBe(405);
  });

  it('reads and advances the domain clock by form, JSON or query', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const auth = { authorization: `Bearer ${sb.info.adminToken}` };
    const start = clock.seconds();
    expect(await sb.clock()).toEqual({ now: start, offset: 0 });
    expect(await sb.advance(960)).toEqual({ now: start + 960, offset: 960 });
    const json = await sb.request('/sandbox/clock', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"advance":40}' });
    expect(json.json).toEqual({ now: start + 1000, offset: 1000 });
    const query = await sb.request('/sandbox/clock?advance=5', { method: 'POST', headers: auth });
    expect(query.json).toEqual({ now: start + 1005, offset: 1005 });
    clock.advance(10);
    expect(await sb.clock()).toEqual({ now: start + 1015, offset: 1005 });
    expect(await sb.advance(0)).toEqual({ now: start + 1015, offset: 1005 });
  });

  it('refuses anything but a whole number of seconds within 100 years of real time, and moves nothing then', async () => {
    const sb = await startTestSandbox();
    const auth = { authorization: `Bearer ${sb.info.adminToken}` };
    const form = (body: string) => sb.request('/sandbox/clock', { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const json = (body: string) => sb.request('/sandbox/clock', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
    for (const res of [await form('advance=1.5'), await form('advance=abc'), await form('advance=999999999999'), await form('advance=-999999999999'), await form('offset=x'), await form(''), await json('[1]'), await json('{"advance":true}'), await json('not json')]) {
      expect(res.status).toBe(400);
      expect(res.json.success).toBe(false);
      expect(typeof res.json.message).toBe('string');
    }
    expect((await sb.clock()).offset).toBe(0);
  });

  it('moves back with a negative step and back to real time with offset=0', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const auth = { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' };
    const start = clock.seconds();
    expect(await sb.advance(31 * 86_400)).toEqual({ now: start + 31 * 86_400, offset: 31 * 86_400 });
    expect(await sb.advance(-86_400)).toEqual({ now: start + 30 * 86_400, offset: 30 * 86_400 });
    const json = await sb.request('/sandbox/clock', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"advance":-60}' });
    expect(json.json.offset).toBe(30 * 86_400 - 60);
    const reset = await sb.request('/sandbox/clock', { method: 'POST', headers: auth, body: 'offset=0' });
    expect(reset.json).toEqual({ now: start, offset: 0 });
    expect(await sb.advance(-3600)).toEqual({ now: start - 3600, offset: -3600 });
  });

  it('reports its domain clock on every answer (x-sandbox-now), whatever the route', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    await sb.advance(31 * 86_400);
    const expected = String(clock.seconds() + 31 * 86_400);
    const sid = await sb.init();
    expect((await sb.client('check', { sessionid: sid })).headers.get('x-sandbox-now')).toBe(expected);
    expect((await sb.request('/api/seller/?sellerkey=bad&type=fetchallkeys')).headers.get('x-sandbox-now')).toBe(expected);
    expect((await sb.request('/no/such/path')).headers.get('x-sandbox-now')).toBe(expected);
  });

  it('moves what the domain sees: sessions, subscriptions; signature timestamps stay real', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb);
    await sb.advance(6 * 3600);
    const gone = await sb.client('check', { sessionid: sid });
    expect(gone.json.message).toBe(SESSION_NOT_FOUND);
    expect(gone.headers.get('x-signature-timestamp')).toBe(String(clock.seconds()));
    expect(sb.verify13(gone)).toBe(true);
    await sb.advance(18 * 3600);
    const login = await sb.client('login', { sessionid: await sb.init(), username, pass, hwid: HWID });
    expect(login.json.message).toBe('No active subscription(s) found');
    expect(login.headers.get('x-signature-timestamp')).toBe(String(clock.seconds()));
  });

  it('keeps the offset across a restart on the same data file', async () => {
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await startTestSandbox({ data });
    await first.advance(3600);
    await first.close();
    const second = await startTestSandbox({ data });
    expect((await second.clock()).offset).toBe(3600);
    expect((await second.advance(60)).offset).toBe(3660);
  });
});
