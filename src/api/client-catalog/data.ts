/**
 * What a logged-in client reads and sends (docs/protocol/client-api.md §4.11–§4.20): variables,
 * chat, webhooks, files, logs and the app's counts. Chat and user variables go to 1.2 unless the
 * profile says otherwise: the interface specification describes them only there.
 */
import type { ClientOp } from './types.js';

const MESSAGE_ONLY = { unchecked: 'Only a message.' } as const;
const CHANNEL = { wire: 'channel', description: 'The chat channel\'s name' } as const;

export const DATA_OPS: readonly ClientOp[] = [
  {
    type: 'var',
    command: ['global-var', 'get'],
    api: '1.3',
    params: [{ wire: 'varid', description: 'The global variable\'s name' }],
    effect: 'read',
    // The value comes back in `message`.
    success: { fields: [{ name: 'message', kind: 'string' }] },
    docs: { row: 11, section: '§4.11' },
  },
  {
    type: 'getvar',
    command: ['var', 'get'],
    api: '1.2',
    params: [{ wire: 'var', description: 'The user variable\'s name' }],
    effect: 'read',
    success: { fields: [{ name: 'response', kind: 'present' }] },
    docs: { row: 12, section: '§4.12' },
  },
  {
    type: 'setvar',
    command: ['var', 'set'],
    api: '1.2',
    params: [
      { wire: 'var', description: 'The user variable\'s name' },
      { wire: 'data', description: 'Its new value' },
    ],
    effect: 'write',
    success: MESSAGE_ONLY,
    quirks: { refusalAsSuccess: /^(No variable (name|data) provided|Variable data must be)/i },
    docs: { row: 13, section: '§4.13' },
  },
  {
    type: 'chatget',
    command: ['chat', 'read'],
    api: '1.2',
    params: [CHANNEL],
    effect: 'read',
    success: { fields: [{ name: 'messages', kind: 'array' }] },
    docs: { row: 14, section: '§4.14' },
  },
  {
    type: 'chatsend',
    command: ['chat', 'send'],
    api: '1.2',
    params: [CHANNEL, { wire: 'message', description: 'The text to post' }],
    effect: 'write',
    success: MESSAGE_ONLY,
    docs: { row: 15, section: '§4.15' },
  },
  {
    type: 'webhook',
    command: ['webhook'],
    api: '1.3',
    params: [
      { wire: 'webid', description: 'The webhook\'s id' },
      { wire: 'params', description: 'Appended to the stored URL as is' },
      { wire: 'body', description: 'A request body; with one the server POSTs' },
      { wire: 'conttype', description: 'The body\'s Content-Type' },
    ],
    // The server calls a URL the seller chose: a repeat calls it twice.
    effect: 'write',
    success: { unchecked: '`response` is the remote server\'s body, printed as it comes: an empty or missing one reads the same (§4.16).' },
    docs: { row: 16, section: '§4.16' },
  },
  {
    type: 'file',
    command: ['file', 'download'],
    api: '1.3',
    params: [{ wire: 'fileid', description: 'The file\'s 6-digit id' }],
    effect: 'read',
    success: { fields: [{ name: 'contents', kind: 'string' }] },
    quirks: { largeAnswer: true },
    docs: { row: 17, section: '§4.17' },
  },
  {
    type: 'log',
    command: ['log'],
    api: '1.3',
    params: [
      { wire: 'message', description: 'The line to log' },
      { wire: 'pcuser', description: 'The name of the user on this machine' },
    ],
    effect: 'write',
    success: { unchecked: 'Only a message on 1.3, and no body at all on 1.2.' },
    quirks: { emptyAnswer: true },
    docs: { row: 18, section: '§4.18' },
  },
  {
    type: 'fetchOnline',
    command: ['online'],
    api: '1.3',
    params: [],
    effect: 'read',
    success: { fields: [{ name: 'users', kind: 'array' }] },
    docs: { row: 19, section: '§4.19' },
  },
  {
    type: 'fetchStats',
    command: ['stats'],
    api: '1.3',
    params: [],
    effect: 'read',
    success: { fields: [{ name: 'appinfo', kind: 'object' }] },
    docs: { row: 20, section: '§4.20' },
  },
];
