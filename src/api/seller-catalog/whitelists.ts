/**
 * `kactl whitelists`: IPs exempt from the VPN block (docs/protocol/seller-api.md §3.13). No operation lists
 * them, so deletes cannot be backed up and there is no `list` verb.
 */
import type { SellerOp } from './types.js';

export const WHITELISTS_OPS: readonly SellerOp[] = [
  {
    type: 'addWhite',
    group: 'whitelists',
    command: ['create'],
    summary: 'Exempt an IP from the VPN block',
    params: [{ wire: 'ip', flag: 'ip', type: 'string', required: true, description: 'IP address to exempt' }],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl whitelists create --ip 198.51.100.20',
    source: 'E',
  },
  {
    type: 'delWhite',
    group: 'whitelists',
    command: ['delete'],
    summary: 'Remove an IP from the whitelist',
    params: [{ wire: 'ip', flag: 'ip', positional: true, type: 'string', required: true, description: 'Whitelisted IP address' }],
    response: { kind: 'message' },
    effect: 'delete-one',
    textFormat: true,
    example: 'kactl whitelists delete 198.51.100.20',
    source: 'E',
  },
  {
    // Not in E. The Discord bot (2025-04) sends `delallwhites`, the Telegram bot (2025-12)
    // `delAllWhites`; we send the first and the sandbox answers both.
    type: 'delallwhites',
    typeAliases: ['delAllWhites'],
    group: 'whitelists',
    command: ['delete'],
    selector: 'all',
    summary: 'Remove every whitelisted IP (nothing can list them for a backup)',
    noBackupReason: 'No seller operation lists whitelisted IPs, so they cannot be backed up.',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    textFormat: true,
    example: 'kactl whitelists delete --all',
    source: 'C',
  },
];
