/**
 * `kactl chats`: chat channels, their messages and mutes (docs/protocol/seller-api.md §3.3).
 * A channel's delay is seconds when created but minutes when edited (E multiplies the edit by
 * 60), so the flags name the unit: `--delay-seconds` and `--delay-minutes`.
 */
import { usernameArg } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col } from './columns.js';

const CHANNEL_ARG: ParamSpec = { wire: 'name', flag: 'name', positional: true, type: 'string', required: true, description: 'Channel name', completeFrom: 'fetchallchats' };

export const CHATS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallchats',
    group: 'chats',
    command: ['list'],
    summary: 'List the channels and their delays',
    params: [],
    response: { kind: 'list', key: 'chats', columns: [col('name', 'CHANNEL', 'id'), col('delay', 'DELAY', 'duration')], emptyMessage: 'No chats found' },
    effect: 'read',
    example: 'kactl chats list',
    source: 'E',
  },
  {
    type: 'addchannel',
    group: 'chats',
    command: ['create'],
    summary: 'Create a channel',
    params: [
      { wire: 'name', flag: 'name', type: 'string', required: true, description: 'Channel name' },
      { wire: 'delay', flag: 'delay-seconds', type: 'integer', unit: 'seconds', required: true, description: 'Seconds a user waits between messages' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl chats create --name general --delay-seconds 5',
    source: 'E',
  },
  {
    type: 'editchan',
    group: 'chats',
    command: ['edit'],
    summary: "Change a channel's delay",
    params: [
      CHANNEL_ARG,
      // Not marked required by the sources; minutes, fractions allowed.
      { wire: 'delay', flag: 'delay-minutes', type: 'number', unit: 'minutes', required: false, description: 'Minutes a user waits between messages; fractions allowed' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl chats edit general --delay-minutes 0.5',
    source: 'E',
  },
  {
    type: 'delchannel',
    group: 'chats',
    command: ['delete'],
    summary: 'Delete a channel and its messages',
    params: [CHANNEL_ARG],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallchats',
    textFormat: true,
    example: 'kactl chats delete general',
    source: 'E',
  },
  {
    type: 'clearchannel',
    group: 'chats',
    command: ['clear'],
    summary: "Delete every message in a channel (no seller operation lists messages to back up)",
    noBackupReason: 'No seller operation lists chat messages, so they cannot be backed up.',
    params: [CHANNEL_ARG],
    response: { kind: 'message' },
    effect: 'bulk',
    textFormat: true,
    example: 'kactl chats clear general',
    source: 'E',
  },
  {
    type: 'muteuser',
    group: 'chats',
    command: ['mute'],
    summary: 'Stop a user from sending chat messages for a while',
    params: [
      usernameArg('user'),
      { wire: 'time', flag: 'seconds', type: 'integer', unit: 'seconds', required: true, description: 'Seconds the mute lasts' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl chats mute alice --seconds 3600',
    source: 'E',
  },
  {
    type: 'unmuteuser',
    group: 'chats',
    command: ['unmute'],
    summary: 'Let a muted user send chat messages again',
    params: [usernameArg('user')],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl chats unmute alice',
    source: 'E',
  },
  {
    type: 'fetchallmutes',
    group: 'chats',
    command: ['mutes'],
    summary: 'List muted users and when each mute ends',
    params: [],
    // `time` is the Unix time the mute ends.
    response: { kind: 'list', key: 'mutes', columns: [col('user', 'USER', 'id'), col('time', 'MUTED UNTIL', 'date')], emptyMessage: 'No mutes found' },
    effect: 'read',
    example: 'kactl chats mutes',
    source: 'E',
  },
];
