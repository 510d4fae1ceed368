/** `kactl blacklists`: HWIDs and IPs refused by the client API (docs/protocol/seller-api.md §3.2). */
import type { SellerOp } from './types.js';
import { col, orNull } from './columns.js';

export const BLACKLISTS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallblacks',
    group: 'blacklists',
    command: ['list'],
    summary: 'List the blacklisted HWIDs and IPs',
    params: [],
    response: { kind: 'list', key: 'blacklists', columns: [col('type', 'TYPE'), orNull(col('ip', 'IP')), orNull(col('hwid', 'HWID', 'id'))], emptyMessage: 'No blacklists found' },
    effect: 'read',
    example: 'kactl blacklists list',
    source: 'E',
  },
  {
    type: 'black',
    group: 'blacklists',
    command: ['create'],
    summary: 'Blacklist an IP, a HWID, or both (one entry each)',
    params: [
      // E adds nothing for an empty value (D23's "blank = caller's IP" is not what E does).
      { wire: 'ip', flag: 'ip', type: 'string', required: false, description: 'IP address to refuse' },
      { wire: 'hwid', flag: 'hwid', type: 'string', required: false, description: 'HWID to refuse' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl blacklists create --ip 203.0.113.7',
    source: 'E',
  },
  {
    type: 'delblack',
    group: 'blacklists',
    command: ['delete'],
    summary: 'Remove one blacklist entry',
    params: [
      { wire: 'data', flag: 'value', positional: true, type: 'string', required: true, description: 'The blacklisted IP or HWID' },
      // region, country and asn rows exist on the hosted service (dashboard-made); E accepts them here.
      {
        wire: 'blacktype',
        flag: 'type',
        type: 'enum',
        choices: ['ip', 'hwid', 'region', 'country', 'asn'],
        required: true,
        description: 'What the value is: ip or hwid (also region, country, asn)',
      },
    ],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallblacks',
    textFormat: true,
    example: 'kactl blacklists delete 203.0.113.7 --type ip',
    source: 'E',
  },
  {
    type: 'delblacks',
    group: 'blacklists',
    command: ['delete'],
    selector: 'all',
    summary: 'Remove every blacklist entry',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallblacks',
    textFormat: true,
    example: 'kactl blacklists delete --all',
    source: 'E',
  },
];
