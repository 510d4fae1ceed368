/**
 * `kactl webhooks`: hidden URLs the client API calls on the server's side (docs/protocol/seller-api.md §3.11).
 * `delwebhook` is not in the server source (E); both official bots send it with `webid`.
 */
import { REQUIRE_LOGIN } from './shared-params.js';
import type { SellerOp } from './types.js';
import { col } from './columns.js';

export const WEBHOOKS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallwebhooks',
    group: 'webhooks',
    command: ['list'],
    summary: 'List the webhooks (the server shows only the first 21 characters of each URL)',
    params: [],
    // `app` (the app secret) is in each row too; never a column.
    response: { kind: 'list', key: 'webhooks', columns: [col('webid', 'ID', 'id'), col('short_baselink', 'URL'), col('useragent', 'USER AGENT'), col('authed', 'LOGIN NEEDED', 'boolean')], emptyMessage: 'No webhooks found' },
    effect: 'read',
    example: 'kactl webhooks list',
    source: 'E',
  },
  {
    type: 'addwebhook',
    group: 'webhooks',
    command: ['create'],
    summary: 'Create a webhook clients can call without seeing its URL',
    params: [
      { wire: 'baseurl', flag: 'url', type: 'string', required: true, description: 'Remote URL the server calls (no local addresses)' },
      // The Discord bot sends `us=`, a client bug: the server ignores it and uses the default.
      // The Discord bot sends `us=` (docs/protocol/seller-api.md §2); the sandbox accepts both.
      { wire: 'ua', flag: 'user-agent', type: 'string', required: false, serverDefault: 'KeyAuth', wireAliases: ['us'], description: 'User-Agent header of the call' },
      REQUIRE_LOGIN,
      { wire: 'webid', flag: 'id', type: 'string', required: false, maxLength: 60, description: 'Custom webhook id (default: 10 random characters)' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl webhooks create --url https://api.example.com/grant --user-agent kactl --require-login --id grant',
    source: 'E',
  },
  {
    type: 'delwebhook',
    group: 'webhooks',
    command: ['delete'],
    summary: 'Delete a webhook',
    params: [{ wire: 'webid', flag: 'id', positional: true, type: 'string', required: true, description: 'Webhook id', completeFrom: 'fetchallwebhooks' }],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallwebhooks',
    textFormat: true,
    example: 'kactl webhooks delete grant',
    source: 'C',
  },
  {
    type: 'delallwebhooks',
    group: 'webhooks',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every webhook',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallwebhooks',
    textFormat: true,
    example: 'kactl webhooks delete --all',
    source: 'E',
  },
];
