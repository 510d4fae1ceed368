/**
 * The sandbox's client handlers against the client catalog (src/api/client-catalog/): every type
 * a kactl command sends has a handler, and the sandbox answers no type the catalog does not
 * describe, except those listed below with their reason. Over HTTP, each catalog type reaches its
 * handler on both versions instead of the unknown-type answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CATALOG, clientTypes } from '../../src/api/client-catalog/index.js';
import { CLIENT_MESSAGES } from '../../src/server/http/client-endpoint.js';
import { clientHandlers } from '../../src/server/client/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** Types the sandbox answers that no kactl command sends: type → why the sandbox has it. None today. */
const SANDBOX_ONLY: Readonly<Record<string, string>> = {};
/** Catalog types the sandbox does not answer: type → why. None today. */
const NOT_IN_SANDBOX: Readonly<Record<string, string>> = {};

describe('client registry', () => {
  it('has a handler for every catalog type', () => {
    const missing = clientTypes().filter((type) => !Object.hasOwn(clientHandlers, type) && !(type in NOT_IN_SANDBOX));
    expect(missing).toEqual([]);
  });

  it('has no handler for a type the catalog does not describe', () => {
    const known = new Set(clientTypes());
    expect(Object.keys(clientHandlers).filter((type) => !known.has(type) && !(type in SANDBOX_ONLY))).toEqual([]);
  });

  it('lists only real exceptions, each with its reason', () => {
    for (const [type, why] of Object.entries(SANDBOX_ONLY)) {
      expect(Object.hasOwn(clientHandlers, type) && !clientTypes().includes(type), type).toBe(true);
      expect(why.trim(), type).not.toBe('');
    }
    for (const [type, why] of Object.entries(NOT_IN_SANDBOX)) {
      expect(!Object.hasOwn(clientHandlers, type) && clientTypes().includes(type), type).toBe(true);
      expect(why.trim(), type).not.toBe('');
    }
  });
});

describe('over HTTP', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers every catalog type on 1.3 and on 1.2, where an unknown type gets the unknown-type answer', async () => {
    const unknown = [CLIENT_MESSAGES.unknownType13, CLIENT_MESSAGES.unknownType12];
    for (const api of ['1.3', '1.2'] as const) {
      const sessionid = await sb.init({}, { api, method: api === '1.2' ? 'POST' : 'GET' });
      const options = { api, method: api === '1.2' ? ('POST' as const) : ('GET' as const) };
      expect(unknown, `${api} noSuchType`).toContain((await sb.client('noSuchType', { sessionid }, options)).json?.message);
      for (const op of CLIENT_CATALOG) {
        if (op.type === 'init' || op.type in NOT_IN_SANDBOX) continue;
        const res = await sb.client(op.type, { sessionid }, options);
        expect(unknown, `${api} ${op.type}: ${res.text}`).not.toContain(res.json?.message);
      }
    }
  });
});
