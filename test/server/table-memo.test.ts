/**
 * The lookups kept between writes of their table (src/server/store/table-memo.ts): the app a
 * client names, here. A row found inside a transaction that is rolled back is not kept, and a
 * row written after a lookup is seen at the next one.
 */
import { expect, it } from 'vitest';
import { createApp, findAppByNameAndOwnerid } from '../../src/server/domain/apps.js';
import { openTestStore } from '../helpers/sandbox.js';

const NOW = 1_800_000_000;
const OTHER = { name: 'other-app', ownerid: 'OTHEROWNER', secret: 'a'.repeat(64), sellerKey: 'b'.repeat(32), owner: 'seller' };

it('keeps no app found inside a transaction that is rolled back', () => {
  const { store } = openTestStore(NOW);
  expect(() =>
    store.tx(() => {
      createApp(store, OTHER, NOW);
      expect(findAppByNameAndOwnerid(store, OTHER.name, OTHER.ownerid)).toMatchObject({ name: OTHER.name });
      throw new Error('roll back');
    }),
  ).toThrow('roll back');
  expect(findAppByNameAndOwnerid(store, OTHER.name, OTHER.ownerid)).toBeUndefined();
  store.close();
});

it('sees an app renamed after it was found', () => {
  const { store, app } = openTestStore(NOW);
  expect(findAppByNameAndOwnerid(store, app.name, app.ownerid)?.id).toBe(app.id);
  store.run('UPDATE apps SET name = ? WHERE id = ?', 'renamed', app.id);
  expect(findAppByNameAndOwnerid(store, app.name, app.ownerid)).toBeUndefined();
  expect(findAppByNameAndOwnerid(store, 'renamed', app.ownerid)?.id).toBe(app.id);
  store.close();
});
