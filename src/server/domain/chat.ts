/**
 * Chat: channels with a per-user delay, the last 50 messages of each channel, and mutes that
 * expire (the source never compares the mute time with now; ours does).
 */
import type { Store } from '../store/store.js';
import { appMessage } from './messages.js';
import { failure, success, type Outcome } from './outcome.js';
import type { AppRow, ChatChannelRow, ChatMessage, ChatMuteRow } from './rows.js';

export const CHAT_MESSAGE_MAX = 2000;
/** Messages kept per channel; older ones are pruned on send. */
export const CHAT_HISTORY = 50;

export function findChannel(store: Store, appId: number, name: string): ChatChannelRow | undefined {
  return store.get<ChatChannelRow>('SELECT * FROM chat_channels WHERE appId = ? AND name = ?', appId, name);
}

export function listChannels(store: Store, appId: number): ChatChannelRow[] {
  return store.all<ChatChannelRow>('SELECT * FROM chat_channels WHERE appId = ? ORDER BY id', appId);
}

/** Creates a channel with `delay` seconds between two messages of one user. False if it exists. */
export function createChannel(store: Store, appId: number, name: string, delay: number): boolean {
  return store.run('INSERT OR IGNORE INTO chat_channels (appId, name, delay) VALUES (?, ?, ?)', appId, name, Math.max(0, Math.round(delay))).changes > 0;
}

export function setChannelDelay(store: Store, appId: number, name: string, delay: number): boolean {
  return store.run('UPDATE chat_channels SET delay = ? WHERE appId = ? AND name = ?', Math.max(0, Math.round(delay)), appId, name).changes > 0;
}

/** Deletes a channel and its messages. */
export function deleteChannel(store: Store, appId: number, name: string): boolean {
  return store.run('DELETE FROM chat_channels WHERE appId = ? AND name = ?', appId, name).changes > 0;
}

/** Deletes every message of a channel. Returns false when there is no such channel. */
export function clearChannel(store: Store, appId: number, name: string): boolean {
  const channel = findChannel(store, appId, name);
  if (channel === undefined) return false;
  return store.run('DELETE FROM chat_messages WHERE channelId = ?', channel.id).changes > 0;
}

/** The channel's last 50 messages, oldest first; an unknown channel has none. */
export function getChatMessages(store: Store, appId: number, channelName: string): ChatMessage[] {
  const channel = findChannel(store, appId, channelName);
  if (channel === undefined) return [];
  return store.all<ChatMessage>(
    'SELECT author, message, timestamp FROM (SELECT id, author, message, timestamp FROM chat_messages WHERE channelId = ? ORDER BY id DESC LIMIT ?) ORDER BY id',
    channel.id, CHAT_HISTORY,
  );
}

export type ChatSendFailure = 'nochannel' | 'delay' | 'muted' | 'blank' | 'toolong';

export interface ChatSendInput {
  readonly channel: string | undefined;
  /** The session's credential. */
  readonly author: string;
  readonly message: string | undefined;
}

/**
 * Posts a message (client `chatsend`, docs/protocol/client-api.md §4.15). Checks in order: channel exists,
 * the author's previous message is older than the channel delay, the author is not muted, the
 * message is not blank, ≤ 2000 characters. Older messages beyond 50 are pruned.
 */
export function sendChatMessage(store: Store, app: AppRow, input: ChatSendInput, now: number): Outcome<void, ChatSendFailure> {
  return store.tx(() => {
    const channel = input.channel === undefined ? undefined : findChannel(store, app.id, input.channel);
    if (channel === undefined) return failure('nochannel', 'Chat channel not found');
    const last = store.get<{ timestamp: number }>('SELECT timestamp FROM chat_messages WHERE channelId = ? AND author = ? ORDER BY id DESC LIMIT 1', channel.id, input.author);
    if (last !== undefined && now - last.timestamp < channel.delay) return failure('delay', appMessage(store, app.id, 'chatHitDelay'));
    const mute = activeMute(store, app.id, input.author, now);
    if (mute !== undefined) return failure('muted', `You're muted from chat until ${formatMuteDate(mute.time)}`);
    if (input.message === undefined) return failure('blank', "Message can't be blank");
    if (input.message.length > CHAT_MESSAGE_MAX) return failure('toolong', 'Message too long!');
    store.run('INSERT INTO chat_messages (appId, channelId, author, message, timestamp) VALUES (?, ?, ?, ?, ?)', app.id, channel.id, input.author, input.message, now);
    store.run(
      'DELETE FROM chat_messages WHERE channelId = ? AND id NOT IN (SELECT id FROM chat_messages WHERE channelId = ? ORDER BY id DESC LIMIT ?)',
      channel.id, channel.id, CHAT_HISTORY,
    );
    return success(undefined);
  });
}

/** Mutes `user` until the Unix time `until` (replacing an earlier mute). */
export function muteUser(store: Store, appId: number, user: string, until: number): void {
  store.run('INSERT INTO chat_mutes (appId, user, time) VALUES (?, ?, ?) ON CONFLICT (appId, user) DO UPDATE SET time = excluded.time', appId, user, until);
}

export function unmuteUser(store: Store, appId: number, user: string): boolean {
  return store.run('DELETE FROM chat_mutes WHERE appId = ? AND user = ?', appId, user).changes > 0;
}

export function listMutes(store: Store, appId: number): ChatMuteRow[] {
  return store.all<ChatMuteRow>('SELECT * FROM chat_mutes WHERE appId = ? ORDER BY id', appId);
}

/** The user's mute if it has not run out yet. */
export function activeMute(store: Store, appId: number, user: string, now: number): ChatMuteRow | undefined {
  return store.get<ChatMuteRow>('SELECT * FROM chat_mutes WHERE appId = ? AND user = ? AND time > ?', appId, user, now);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * PHP's `F j, Y, g:i a` (`November 14, 2023, 10:13 pm`), in UTC: the real server uses its own
 * time zone; the sandbox's answers must not depend on the machine's.
 */
export function formatMuteDate(unix: number): string {
  const d = new Date(unix * 1000);
  const hours = d.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'}`;
}
