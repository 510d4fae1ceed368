import { it, expect } from 'vitest';
import { startSandbox } from '../../src/sandbox.js';

it('smoke', async () => {
  await using sb = await startSandbox({ seed: { subscriptions: [{ name: 'default', level: 1 }], licenses: [{ key: 'CI-KEY-0001', level: 1, expiry: '30d' }] } });
  const client = sb.client();
  const init = await client.init();
  expect(init.sessionid).toBeTypeOf('string');
  const login = await client.license({ key: 'CI-KEY-0001', hwid: 'HWID-0000000000000000001' });
  expect(login.info.username).toBe('CI-KEY-0001');
  const seller = sb.seller();
  const keys = await seller.call('fetchallkeys');
  expect(keys.keys.length).toBe(1);
  const made = await seller.createLicenses({ amount: 150, expiry: 1, note: 'bulk' });
  expect(made.keys).toHaveLength(150);
  const snap = await sb.snapshot();
  await sb.advance('2d');
  await sb.reset();
  expect((await seller.call('fetchallkeys')).keys.length).toBe(1);
  expect(await sb.clock.offset()).toBe(0);
  await sb.restore(snap);
  expect((await seller.call('fetchallkeys')).keys.length).toBe(151);
});
