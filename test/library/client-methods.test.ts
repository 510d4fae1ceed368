/**
 * kactl/client has a method for every client type of the client catalog (src/api/client-catalog/,
 * which the sandbox answers exactly), and nothing else: a new type fails here until it has one.
 */
import { expect, expectTypeOf, it } from 'vitest';
import { CLIENT_METHODS, createClient, type KactlClient } from '../../src/client.js';
import { clientTypes } from '../../src/api/client-catalog/index.js';
import type { LoginAnswer } from '../../src/api/client-answers.js';

it('has one method per client type', () => {
  expect(Object.values(CLIENT_METHODS).sort()).toEqual([...clientTypes()].sort());
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', appName: 'app', ownerid: 'abcdefghij', verify: false });
  for (const method of Object.keys(CLIENT_METHODS)) expect(typeof client[method as keyof typeof CLIENT_METHODS], method).toBe('function');
  void client.close();
});

it('types what logins answer', () => {
  expectTypeOf<Awaited<ReturnType<KactlClient['login']>>>().toEqualTypeOf<LoginAnswer>();
  expectTypeOf<LoginAnswer['info']['subscriptions'][number]['timeleft']>().toEqualTypeOf<number>();
  expectTypeOf<Parameters<KactlClient['register']>[0]>().toHaveProperty('key').toEqualTypeOf<string>();
});
