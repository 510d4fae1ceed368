/**
 * The request path answers without promises when nothing waits (src/server/http/maybe-async.ts).
 * A handler that returns its reply and one that returns a promise of it must look the same from
 * outside: same status, body, signature and log line, failures included.
 */
import { describe, expect, it } from 'vitest';
import { ok } from '../../src/server/dispatch/reply.js';
import type { Handler } from '../../src/server/dispatch/types.js';
import { startTestSandbox, type HttpResult } from '../helpers/sandbox.js';

async function later<T>(value: () => T): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return value();
}

const handlers: Record<string, Handler> = {
  plainnow: () => ok('fine', { n: 1 }),
  plainlater: () => later(() => ok('fine', { n: 1 })),
  failnow: () => {
    throw new Error('broken now');
  },
  faillater: () => later(() => {
    throw new Error('broken later');
  }),
};

function withoutNonce(res: HttpResult): unknown {
  const { nonce, ...rest } = res.json as Record<string, unknown>;
  expect(nonce).toEqual(expect.any(String));
  return rest;
}

describe('answers ready at once and answers awaited', () => {
  it('are the same for a reply and for a promise of one, on 1.3 and 1.2', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line), handlers: { client: handlers } });
    for (const api of ['1.3', '1.2'] as const) {
      const now = await sb.client('plainnow', {}, { api });
      const awaited = await sb.client('plainlater', {}, { api });
      expect([now.status, awaited.status]).toEqual([200, 200]);
      expect(withoutNonce(awaited)).toEqual(withoutNonce(now));
      expect([...awaited.headers.keys()]).toEqual([...now.headers.keys()]);
    }
    expect(sb.verify13(await sb.client('plainnow'))).toBe(true);
    expect(sb.verify13(await sb.client('plainlater'))).toBe(true);
    expect(lines.filter((line) => /^GET \/api\/1\.[23]\/ type=plain(now|later) → 200 \(\d+ ms\)$/.test(line))).toHaveLength(6);
  });

  it('turn a throw and a rejection into the same 500, logged, and keep serving', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line), handlers: { client: handlers } });
    const now = await sb.client('failnow');
    const awaited = await sb.client('faillater');
    expect([now.status, awaited.status]).toEqual([500, 500]);
    expect(awaited.text).toBe(now.text);
    expect(now.text).not.toContain('broken');
    expect(lines.some((line) => line.startsWith('handler 1.3 failnow failed: Error: broken now'))).toBe(true);
    expect(lines.some((line) => line.startsWith('handler 1.3 faillater failed: Error: broken later'))).toBe(true);
    expect((await sb.client('plainnow')).status).toBe(200);
  });

  it('refuse bad input the same way on GET (read at once) and POST (body awaited)', async () => {
    const sb = await startTestSandbox({ handlers: { client: handlers } });
    const get = await sb.request(`/api/1.3/?type=plainnow&name=%zz`);
    const post = await sb.request('/api/1.3/', { method: 'POST', body: 'type=plainnow&name=%zz', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([get.status, post.status]).toEqual([400, 400]);
    expect(withoutOwnerid(post)).toEqual(withoutOwnerid(get));
  });

  it('let a graceful shutdown wait for an answer still being awaited', async () => {
    const sb = await startTestSandbox({ handlers: { client: { slow: () => new Promise((resolve) => setTimeout(() => resolve(ok('slow done')), 100)) } } });
    const answer = sb.client('slow');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await sb.close();
    expect((await answer).json).toMatchObject({ success: true, message: 'slow done' });
  });
});

function withoutOwnerid(res: HttpResult): unknown {
  const { ownerid: _ownerid, ...rest } = res.json as Record<string, unknown>;
  return rest;
}
