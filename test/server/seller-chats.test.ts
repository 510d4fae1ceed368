/** Seller API, chats (docs/protocol/seller-api.md §3.3): channels (seconds / minutes), messages, mutes. */
import { describe, expect, it } from 'vitest';
import { findChannel, getChatMessages, sendChatMessage } from '../../src/server/domain/chat.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectEmptyList, expectFail, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

function post(sb: TestSandbox, author: string, now: number) {
  return sendChatMessage(sb.store, sb.app(), { channel: 'general', author, message: 'hello' }, now);
}

describe('channels', () => {
  it('addchannel takes seconds, editchan minutes (fractions allowed), fetchallchats lists them', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '5' }, 'Successfully created channel!');
    expect(findChannel(sb.store, sb.app().id, 'general')?.delay).toBe(5);
    await sellerOk(sb, 'editchan', { name: 'general', delay: '0.5' }, 'Successfully updated channel!');
    expect((await sellerOk(sb, 'fetchallchats', {}, 'Successfully retrieved chats'))['chats']).toEqual([{ name: 'general', delay: '30' }]);
    // Absent, the delay becomes 0 (E writes null × 60).
    await sellerOk(sb, 'editchan', { name: 'general' });
    expect(findChannel(sb.store, sb.app().id, 'general')?.delay).toBe(0);
  });

  it('refuses a missing name, a taken one, unknown channels and malformed delays', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallchats'), 'No chats found');
    expectFail(await sb.seller('addchannel', { delay: '5' }), 'Channel name not specified');
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '5' });
    expectFail(await sb.seller('addchannel', { name: 'general', delay: '5' }), 'Failed to create channel!');
    expectFail(await sb.seller('addchannel', { name: 'other', delay: '0.5' }), 'Invalid parameter: delay must be a whole number');
    expectFail(await sb.seller('editchan', { name: 'nope', delay: '1' }), 'Failed To update channel!');
    expectFail(await sb.seller('editchan', { name: 'general', delay: 'slow' }), 'Invalid parameter: delay must be a number');
    expectFail(await sb.seller('delchannel', { name: 'nope' }), 'Failed to delete channel!');
    expectFail(await sb.seller('clearchannel', { name: 'nope' }), 'Failed to clear channel!');
  });

  it('clearchannel empties a channel; delchannel removes it', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '0' });
    expect(post(sb, 'alice', clock.seconds()).ok).toBe(true);
    await sellerOk(sb, 'clearchannel', { name: 'general' }, 'Successfully cleared channel!');
    expect(getChatMessages(sb.store, sb.app().id, 'general')).toEqual([]);
    await sellerOk(sb, 'delchannel', { name: 'general' }, 'Successfully deleted channel!');
    expectEmptyList(await sb.seller('fetchallchats'), 'No chats found');
  });
});

describe('mutes', () => {
  it('muteuser mutes for the given seconds; unmuteuser lifts it; fetchallmutes lists end times', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '0' });
    await makeUser(sb, 'alice');
    expectEmptyList(await sb.seller('fetchallmutes'), 'No mutes found');
    await sellerOk(sb, 'muteuser', { user: 'alice', time: '3600' }, 'Successfully muted user!');
    expect((await sellerOk(sb, 'fetchallmutes', {}, 'Successfully retrieved mutes'))['mutes']).toEqual([{ user: 'alice', time: String(clock.seconds() + 3600) }]);
    const refused = post(sb, 'alice', clock.seconds());
    expect(refused.ok ? undefined : refused.code).toBe('muted');
    await sellerOk(sb, 'unmuteuser', { user: 'alice' }, 'Successfully unmuted user!');
    expect(post(sb, 'alice', clock.seconds()).ok).toBe(true);
    expectFail(await sb.seller('unmuteuser', { user: 'alice' }), 'Failed to unmute user!');
  });

  it('a mute runs out after its seconds', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addchannel', { name: 'general', delay: '0' });
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'muteuser', { user: 'alice', time: '60' });
    clock.advance(61);
    expect(post(sb, 'alice', clock.seconds()).ok).toBe(true);
  });

  it('muteuser refuses unknown users and a missing or malformed time', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('muteuser', { user: 'nobody', time: '60' }), "User doesn't exist!");
    expectFail(await sb.seller('muteuser', { user: 'alice' }), 'Invalid time paramater, must be number');
    expectFail(await sb.seller('muteuser', { user: 'alice', time: 'an hour' }), 'Invalid time paramater, must be number');
  });
});
