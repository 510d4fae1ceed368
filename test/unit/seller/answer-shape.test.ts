/**
 * Only a boolean `success` counts, and a success must carry what the operation promises: anything
 * else is "not the expected answer" (exit 4), so `kactl licenses verify X && …` is never misled.
 */
import { describe, expect, it } from 'vitest';
import { fakeSeller, json } from './helpers.js';

async function verifyAnswering(body: Record<string, unknown>): Promise<{ code: number; stderr: string }> {
  const seller = await fakeSeller({ verify: () => json(body) });
  return seller.run(['licenses', 'verify', 'ABCDEF-123456']);
}

describe('success must be a boolean', () => {
  it.each([
    ['"false" as a string', { success: 'false', message: 'Key not found' }, /its "success" is "false", not true or false/],
    ['0', { success: 0, message: 'Key not found' }, /its "success" is 0, not true or false/],
    ['missing', { message: 'Key not found' }, /it has no "success" field/],
  ])('success %s: exit 4 with one sentence', async (_label, body, sentence) => {
    const result = await verifyAnswering(body);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/^error: The server's reply is not the expected answer to verify: /);
    expect(result.stderr).toMatch(sentence);
  });

  it('a real success still exits 0, a real failure 1', async () => {
    expect((await verifyAnswering({ success: true, message: 'Key exists' })).code).toBe(0);
    expect((await verifyAnswering({ success: false, message: 'Key not found' })).code).toBe(1);
  });
});

describe('a success must carry the fields of its operation', () => {
  it.each([
    ['no keys at all', { success: true, message: 'ok' }, /it has no "keys"/],
    ['keys not an array', { success: true, message: 'ok', keys: 'not-an-array' }, /its "keys" is not a list/],
  ])('licenses list with %s: exit 4', async (_label, body, sentence) => {
    const seller = await fakeSeller({ fetchallkeys: () => json(body) });
    const result = await seller.run(['licenses', 'list', '--json']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(sentence);
  });

  it('an app details answer without its record: exit 4', async () => {
    const seller = await fakeSeller({ appdetails: () => json({ success: true, message: 'ok' }) });
    const result = await seller.run(['app', 'details']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/not the expected answer to appdetails: it has no "appdetails"/);
  });
});
