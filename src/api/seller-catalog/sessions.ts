/** `kactl sessions`: open client sessions (docs/protocol/seller-api.md §3.8). */
import type { SellerOp } from './types.js';
import { col, orNull } from './columns.js';

export const SESSIONS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallsessions',
    group: 'sessions',
    command: ['list'],
    summary: 'List open sessions',
    params: [],
    // `credential` stays empty until the session logs in; `expiry` is a Unix time.
    response: { kind: 'list', key: 'sessions', columns: [col('id', 'SESSION', 'id'), orNull(col('credential', 'USER')), orNull(col('ip', 'IP')), col('validated', 'VALIDATED', 'boolean'), col('expiry', 'ENDS IN', 'timeleft')], emptyMessage: 'No sessions found' },
    filters: [
      { flag: 'user', test: { kind: 'equals', field: 'credential' }, value: 'username', description: 'Only sessions logged in as this user (or with this key)', completeFrom: 'fetchallusernames' },
      { flag: 'validated', test: { kind: 'yes', field: 'validated' }, description: 'Only sessions that passed init and login' },
      { flag: 'not-validated', test: { kind: 'no', field: 'validated' }, description: 'Only sessions that did not log in yet' },
    ],
    effect: 'read',
    example: 'kactl sessions list',
    source: 'E',
  },
  {
    type: 'kill',
    group: 'sessions',
    command: ['kill'],
    summary: 'End one session',
    params: [{ wire: 'sessid', flag: 'session-id', positional: true, type: 'string', required: true, description: 'Session id (10 characters)', completeFrom: 'fetchallsessions' }],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallsessions',
    textFormat: true,
    example: 'kactl sessions kill a1b2c3d4e5',
    source: 'E',
  },
  {
    type: 'killall',
    group: 'sessions',
    command: ['kill'],
    selector: 'all',
    summary: 'End every session, logging every client out',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallsessions',
    textFormat: true,
    example: 'kactl sessions kill --all',
    source: 'E',
  },
];
