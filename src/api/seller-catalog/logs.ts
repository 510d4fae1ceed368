/** `kactl logs`: lines clients sent with the client API's `log` (docs/protocol/seller-api.md §3.7). */
import type { SellerOp } from './types.js';
import { col, orNull } from './columns.js';

export const LOGS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchalllogs',
    group: 'logs',
    command: ['list'],
    summary: 'List the client logs',
    params: [],
    // `credential` is the username or key, `pcuser` the PC's user name.
    response: { kind: 'list', key: 'logs', columns: [col('logdate', 'DATE', 'date'), orNull(col('credential', 'USER')), orNull(col('pcuser', 'PC USER')), col('logdata', 'MESSAGE')], emptyMessage: 'No logs found' },
    filters: [
      { flag: 'user', test: { kind: 'equals', field: 'credential' }, value: 'username', description: 'Only lines sent by this user (or key)', completeFrom: 'fetchallusernames' },
      { flag: 'since', test: { kind: 'after', field: 'logdate' }, description: 'Only lines sent at or after this moment' },
    ],
    effect: 'read',
    example: 'kactl logs list',
    source: 'E',
  },
  {
    // The only logs delete is "all": `kactl logs delete` without --all is a usage error.
    type: 'dellogs',
    group: 'logs',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every client log',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchalllogs',
    textFormat: true,
    example: 'kactl logs delete --all',
    source: 'E',
  },
];
