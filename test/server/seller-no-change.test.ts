/**
 * Writes that change nothing answer failure, as on the genuine server, whose MySQL affected_rows
 * counts rows changed (SQLite counts rows matched): a script tested here must exit 1 where the
 * real server makes it exit 1 (docs/protocol/seller-api.md §1.6). Each case also shows the same
 * call succeeding when there is something to change.
 */
import { describe, expect, it } from 'vitest';
import { sendChatMessage } from '../../src/server/domain/chat.js';
import { findUser } from '../../src/server/domain/users.js';
import { listBlacklists } from '../../src/server/domain/blacklists.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectFail, loginSession, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

function hwidOf(sb: TestSandbox, username: string): string | null | undefined {
  return findUser(sb.store, sb.app().id, username)?.hwid;
}

describe('writes that change no row', () => {
  it('resetuser on a user with no HWID: Failed to reset user!', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expect(hwidOf(sb, 'alice')).toBeNull();
    expectFail(await sb.seller('resetuser', { user: 'alice' }), 'Failed to reset user!');
    await loginSession(sb, 'alice');
    await sellerOk(sb, 'resetuser', { user: 'alice' }, 'Successfully reset user!');
    expectFail(await sb.seller('resetuser', { user: 'alice' }), 'Failed to reset user!');
  });

  it('resetalluser when no user has a HWID: Failed to reset all users!', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    expectFail(await sb.seller('resetalluser'), 'Failed to reset all users!');
    await loginSession(sb, 'bob');
    await sellerOk(sb, 'resetalluser', {}, 'Successfully reset all users!');
    expect(hwidOf(sb, 'bob')).toBeNull();
    expectFail(await sb.seller('resetalluser'), 'Failed to reset all users!');
  });

  it('setcooldown to the value it already has: Failed to set cooldown!', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setcooldown', { user: 'alice', cooldown: '3600' }, 'Cooldown set successfully!');
    expectFail(await sb.seller('setcooldown', { user: 'alice', cooldown: '3600' }), 'Failed to set cooldown!');
    await sellerOk(sb, 'setcooldown', { user: 'alice', cooldown: '7200' }, 'Cooldown set successfully!');
    expect(findUser(sb.store, sb.app().id, 'alice')?.cooldown).toBe(7200);
  });

  it('unbanuser on a user who is not banned: Failed to unban user!, and no blacklist row is touched', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await loginSession(sb, 'alice');
    await makeUser(sb, 'bob');
    await loginSession(sb, 'bob');
    // Bob shares Alice's HWID: the seller blacklists it without banning Alice.
    await sellerOk(sb, 'banuser', { user: 'bob', reason: 'Sharing' });
    expectFail(await sb.seller('unbanuser', { user: 'alice' }), 'Failed to unban user!');
    expect(listBlacklists(sb.store, sb.app().id)).toHaveLength(1);
    await sellerOk(sb, 'unbanuser', { user: 'bob' }, 'Successfully unbanned user!');
    expectFail(await sb.seller('unbanuser', { user: 'bob' }), 'Failed to unban user!');
    expectFail(await sb.seller('unbanuser', { user: 'nobody' }), 'User not found!');
  });

  it('clearchannel on an empty channel: Failed to clear channel!', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '0' });
    expectFail(await sb.seller('clearchannel', { name: 'general' }), 'Failed to clear channel!');
    expect(sendChatMessage(sb.store, sb.app(), { channel: 'general', author: 'alice', message: 'hello' }, clock.seconds()).ok).toBe(true);
    await sellerOk(sb, 'clearchannel', { name: 'general' }, 'Successfully cleared channel!');
    expectFail(await sb.seller('clearchannel', { name: 'general' }), 'Failed to clear channel!');
  });
});
