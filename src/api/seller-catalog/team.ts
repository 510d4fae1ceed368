/**
 * `kactl team`: reseller and manager accounts under the seller (docs/protocol/seller-api.md §3.14).
 *
 * `fetchteam` (clients only, not in E) answers two lists, `resellers` and `managers`. A list
 * response names one key, so it has two entries: `team list` shows resellers and
 * `team list --managers` shows managers; `--json` prints the whole answer either way.
 * "Retrieve information" on one account has no known type and is not offered.
 */
import { passwordFlag, usernameFlag } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col, orNull } from './columns.js';

/** An account to act on: `user` on deleteAccount, `username` on the balance types. */
function accountArg(wire: string): ParamSpec {
  return { wire, flag: 'username', positional: true, type: 'string', required: true, description: 'Reseller or manager username', completeFrom: 'fetchteam' };
}

/** A count of keys of one duration added to a reseller's balance. */
function keysOf(wire: string, flag: string, duration: string): ParamSpec {
  return { wire, flag: `${flag}-keys`, type: 'integer', required: false, serverDefault: '0', description: `Number of ${duration} keys to add` };
}

// Not in E, so the empty answer is unknown; this text follows the other lists.
const TEAM_EMPTY = 'No team members found';

export const TEAM_OPS: readonly SellerOp[] = [
  {
    type: 'fetchteam',
    group: 'team',
    command: ['list'],
    summary: 'List the reseller accounts (--managers for managers)',
    params: [],
    response: { kind: 'list', key: 'resellers', columns: [col('username', 'USERNAME', 'id'), col('balance', 'BALANCE'), col('key_levels', 'KEY LEVELS')], emptyMessage: TEAM_EMPTY },
    effect: 'read',
    example: 'kactl team list',
    source: 'C',
  },
  {
    type: 'fetchteam',
    group: 'team',
    command: ['list'],
    selector: 'managers',
    summary: 'List the manager accounts',
    params: [],
    response: { kind: 'list', key: 'managers', columns: [col('username', 'USERNAME', 'id'), col('permissions', 'PERMISSIONS')], emptyMessage: TEAM_EMPTY },
    effect: 'read',
    example: 'kactl team list --managers',
    source: 'C',
  },
  {
    type: 'addAccount',
    group: 'team',
    command: ['create'],
    summary: 'Create a reseller or manager account',
    params: [
      { wire: 'role', flag: 'role', type: 'enum', choices: ['Reseller', 'Manager'], required: true, description: 'Reseller or Manager (exact case)' },
      usernameFlag('user', 'Username of the new account (unique across the service)'),
      passwordFlag('pass', true, 'Password of the new account'),
      { wire: 'email', flag: 'email', type: 'string', required: true, description: 'Email address (unique across the service)' },
      // D23/AD write "1,4,8", but E's reseller key creation splits on "|".
      {
        wire: 'keylevels',
        flag: 'key-levels',
        type: 'string',
        required: false,
        serverDefault: 'N/A',
        description: 'License levels a reseller may create, separated by | (e.g. 1|2); default any',
      },
      {
        wire: 'perms',
        flag: 'permissions',
        type: 'integer',
        required: false,
        serverDefault: '2047',
        description: "Manager's page permissions as a bit mask (1-2047; 2047 = every page)",
      },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl team create --role Reseller --username shop1 --password "s3cret!" --email shop1@example.com --key-levels "1|2"',
    source: 'E',
  },
  {
    type: 'deleteAccount',
    group: 'team',
    command: ['delete'],
    summary: 'Delete a reseller or manager account',
    params: [accountArg('user')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchteam',
    textFormat: true,
    example: 'kactl team delete shop1',
    source: 'E',
  },
  {
    type: 'getbalance',
    group: 'team',
    command: ['balance'],
    summary: "Show a reseller's key balance",
    params: [
      accountArg('username'),
      { wire: 'appname', flag: 'app-name', type: 'string', required: true, description: 'Name of the application the reseller belongs to' },
    ],
    // E returns null for three_month and six_month (a bug); read them as 0.
    response: { kind: 'object', key: 'balance', noMessage: true, fields: [
        col('day', 'DAY KEYS', 'number'), col('week', 'WEEK KEYS', 'number'), col('month', 'MONTH KEYS', 'number'), orNull(col('three_month', 'THREE-MONTH KEYS', 'number')), orNull(col('six_month', 'SIX-MONTH KEYS', 'number')), col('year', 'YEAR KEYS', 'number'), col('lifetime', 'LIFETIME KEYS', 'number'), col('total_keys', 'TOTAL KEYS', 'number'),
      ] },
    effect: 'read',
    example: 'kactl team balance shop1 --app-name MyApp',
    source: 'E',
  },
  {
    type: 'setbalance',
    group: 'team',
    command: ['add-balance'],
    // The type says "set" but the server adds to the balance.
    summary: "Add keys to a reseller's balance",
    params: [
      accountArg('username'),
      keysOf('day', 'day', 'one-day'),
      keysOf('week', 'week', 'one-week'),
      keysOf('month', 'month', 'one-month'),
      keysOf('threemonth', 'three-month', 'three-month'),
      keysOf('sixmonth', 'six-month', 'six-month'),
      // E ignores `year` (always 0); sent anyway for servers that fixed it.
      keysOf('year', 'year', 'one-year'),
      keysOf('lifetime', 'lifetime', 'lifetime'),
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl team add-balance shop1 --month-keys 20 --lifetime-keys 2',
    source: 'E',
  },
];
