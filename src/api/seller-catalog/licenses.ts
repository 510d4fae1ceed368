/**
 * `kactl licenses`: license keys (docs/protocol/seller-api.md §3.6). A key's duration is in days when it is
 * created (`add`, `addtime`) but in raw seconds for `edit`, which writes the stored duration.
 */
import { passwordFlag, userTooFlag, usernameFlag } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col, orNull } from './columns.js';

/**
 * A key's states as `--status` names them → the server's `status` words. The state engine reads
 * a key's state through the same table (src/state/license-plan.ts).
 */
export const KEY_STATUSES: Readonly<Record<string, string>> = { unused: 'Not Used', used: 'Used', banned: 'Banned', paused: 'Paused' };

/**
 * The sandbox extension of `add` that takes several given keys (`keys`, one a line): the name
 * `getsettings` lists under `sandbox.extensions`, with how many keys one call may carry.
 */
export const ADD_KEYS_EXTENSION = 'addkeys';

const KEY_ARG: ParamSpec = { wire: 'key', flag: 'key', positional: true, type: 'string', required: true, description: 'The license key', completeFrom: 'fetchallkeys' };

export const LICENSES_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallkeys',
    group: 'licenses',
    command: ['list'],
    summary: 'List every license key',
    params: [],
    response: {
      kind: 'list',
      key: 'keys',
      // `expires` is the duration in seconds (a date only once redeemed); `app` holds the app
      // secret and is never shown.
      columns: [
        col('key', 'KEY', 'id'), col('status', 'STATUS'), col('level', 'LEVEL', 'level'), col('expires', 'DURATION', 'duration', 'duration'), orNull(col('note', 'NOTE')),
        orNull(col('genby', 'CREATED BY', 'text', 'created_by')), col('gendate', 'CREATED', 'date', 'created'), orNull(col('usedby', 'USED BY', 'text', 'used_by')), orNull(col('usedon', 'USED ON', 'date', 'used_on')), orNull(col('banned', 'BAN REASON', 'text', 'ban_reason')),
      ],
      emptyMessage: 'No keys found',
    },
    filters: [
      { flag: 'status', test: { kind: 'equals', field: 'status', values: KEY_STATUSES }, description: 'Only keys in this state' },
      { flag: 'level', test: { kind: 'equals', field: 'level' }, value: 'level', description: 'Only keys of this level' },
      { flag: 'note', test: { kind: 'equals', field: 'note' }, value: 'text', description: 'Only keys with exactly this note' },
      { flag: 'used-by', test: { kind: 'equals', field: 'used_by' }, value: 'username', description: 'Only keys redeemed by this user', completeFrom: 'fetchallusernames' },
      { flag: 'created-by', test: { kind: 'equals', field: 'created_by' }, value: 'name', description: 'Only keys made by this creator (SellerAPI, a reseller, a dashboard user)' },
      { flag: 'created-before', test: { kind: 'before', field: 'created' }, description: 'Only keys made before this moment' },
      { flag: 'created-after', test: { kind: 'after', field: 'created' }, description: 'Only keys made at or after this moment' },
      { flag: 'used-before', test: { kind: 'before', field: 'used_on' }, description: 'Only keys redeemed before this moment' },
      { flag: 'used-after', test: { kind: 'after', field: 'used_on' }, description: 'Only keys redeemed at or after this moment' },
    ],
    effect: 'read',
    // S22/D23 answered format=text with one key a line; E always answers JSON.
    example: 'kactl licenses list',
    source: 'E',
  },
  {
    type: 'info',
    group: 'licenses',
    command: ['get'],
    summary: 'Show one license: status, level, duration, note and who used it',
    params: [KEY_ARG],
    // The same fields as a row of the list, under other wire names: kactl's names are the list's.
    response: { kind: 'flat', noMessage: true, fields: [
        col('status', 'STATUS'), col('level', 'LEVEL', 'level'), col('duration', 'DURATION', 'duration'), orNull(col('note', 'NOTE')),
        orNull(col('createdby', 'CREATED BY', 'text', 'created_by')), col('creationdate', 'CREATED', 'date', 'created'), orNull(col('usedby', 'USED BY', 'text', 'used_by')), orNull(col('usedon', 'USED ON', 'date', 'used_on')),
      ] },
    effect: 'read',
    example: 'kactl licenses get ABCDEF-123456',
    source: 'E',
  },
  {
    type: 'add',
    group: 'licenses',
    command: ['create'],
    summary: 'Create license keys (at most 100 a call, 5000 a day)',
    params: [
      { wire: 'expiry', flag: 'expiry', type: 'number', unit: 'days', required: true, description: 'Duration in days, counted from redemption; fractions allowed' },
      { wire: 'amount', flag: 'amount', type: 'integer', required: false, serverDefault: '1', description: 'How many keys to create (1-100)' },
      { wire: 'level', flag: 'level', type: 'integer', required: false, serverDefault: '1', maxLength: 12, description: 'Level: the key grants the subscriptions of this level' },
      {
        wire: 'mask',
        flag: 'mask',
        type: 'string',
        required: false,
        serverDefault: '******-******-******-******-******-******',
        description: 'Layout: each * becomes a random character; without * it is one fixed key',
      },
      { wire: 'note', flag: 'note', type: 'string', required: false, description: 'Note stored on each key' },
      {
        wire: 'character',
        flag: 'character',
        type: 'enum',
        choices: ['1', '2', '3'],
        required: false,
        serverDefault: '1',
        description: 'Characters: 1 mixed case and digits, 2 upper case and digits, 3 lower case and digits',
      },
      { wire: 'owner', flag: 'owner', type: 'string', required: false, serverDefault: 'SellerAPI', description: 'Recorded as creator; a reseller username credits them' },
      {
        wire: 'keys',
        flag: 'keys',
        type: 'string',
        required: false,
        sandboxExtension: ADD_KEYS_EXTENSION,
        description: 'Keys to create as they are, one a line, all or none (sandbox only: a kactl sandbox extension the hosted service ignores)',
      },
    ],
    response: { kind: 'keys' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses create --amount 10 --expiry 30 --level 1 --mask "PRO-******-******" --note "March batch"',
    source: 'E',
  },
  {
    type: 'del',
    group: 'licenses',
    command: ['delete'],
    summary: 'Delete one license and the subscriptions it granted',
    params: [KEY_ARG, userTooFlag('delete')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses delete ABCDEF-123456 --user-too',
    source: 'E',
  },
  {
    type: 'delalllicenses',
    group: 'licenses',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every license',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses delete --all',
    source: 'E',
  },
  {
    type: 'delused',
    group: 'licenses',
    command: ['delete'],
    selector: 'used',
    summary: 'Delete every used license',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses delete --used',
    source: 'E',
  },
  {
    type: 'delunused',
    group: 'licenses',
    command: ['delete'],
    selector: 'unused',
    summary: 'Delete every unused license',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses delete --unused',
    source: 'E',
  },
  {
    type: 'delmultiple',
    group: 'licenses',
    command: ['delete-many'],
    summary: 'Delete several licenses; stops at the first that fails',
    params: [
      // E splits on exactly ", "; the CLI may accept looser input and join it that way.
      { wire: 'key', flag: 'keys', type: 'string', required: true, description: 'The keys, separated by ", " (comma and space)' },
      userTooFlag('delete'),
    ],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses delete-many --keys "ABCDEF-123456, GHIJKL-789012" --user-too',
    source: 'E',
  },
  {
    type: 'ban',
    group: 'licenses',
    command: ['ban'],
    summary: 'Ban a license, and with --user-too the user who redeemed it',
    params: [
      KEY_ARG,
      // D23 calls it required; E does not check it.
      { wire: 'reason', flag: 'reason', type: 'string', required: false, description: 'Reason shown to the banned client' },
      userTooFlag('ban'),
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses ban ABCDEF-123456 --reason "Chargeback" --user-too',
    source: 'E',
  },
  {
    type: 'unban',
    group: 'licenses',
    command: ['unban'],
    summary: 'Unban a license (and the user who redeemed it)',
    params: [KEY_ARG],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses unban ABCDEF-123456',
    source: 'E',
  },
  {
    type: 'verify',
    group: 'licenses',
    command: ['verify'],
    summary: 'Check that a license exists',
    params: [KEY_ARG],
    response: { kind: 'message' },
    effect: 'read',
    textFormat: true,
    example: 'kactl licenses verify ABCDEF-123456',
    source: 'E',
  },
  {
    type: 'setnote',
    group: 'licenses',
    command: ['note'],
    summary: "Set a license's note",
    params: [KEY_ARG, { wire: 'note', flag: 'note', type: 'string', required: true, maxLength: 69, description: 'The note (at most 69 characters)' }],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses note ABCDEF-123456 --note "Paid by bank transfer"',
    source: 'E',
  },
  {
    type: 'fetchnote',
    group: 'licenses',
    command: ['get-note'],
    summary: "Show a license's note",
    params: [KEY_ARG],
    // E answers `{"note": …}` with no `success` key at all.
    response: { kind: 'value', key: 'note', nullable: true, noMessage: true },
    effect: 'read',
    example: 'kactl licenses get-note ABCDEF-123456',
    source: 'E',
  },
  {
    type: 'edit',
    group: 'licenses',
    command: ['edit'],
    summary: "Replace a license's duration",
    params: [
      KEY_ARG,
      // Unlike `add`, `edit` writes the stored duration as is: seconds, not days.
      { wire: 'expiry', flag: 'seconds', type: 'integer', unit: 'seconds', required: true, description: 'New duration in seconds' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses edit ABCDEF-123456 --seconds 2592000',
    source: 'E',
  },
  {
    type: 'addtime',
    group: 'licenses',
    command: ['add-time'],
    summary: 'Add days to every unused license (extend users for used ones)',
    params: [{ wire: 'time', flag: 'days', type: 'number', unit: 'days', required: true, description: 'Days to add to each unused key' }],
    response: { kind: 'message' },
    // Changes every unused key and cannot be undone through the API: back up first.
    effect: 'bulk',
    backupFrom: 'fetchallkeys',
    textFormat: true,
    example: 'kactl licenses add-time --days 3',
    source: 'E',
  },
  {
    type: 'assignkey',
    group: 'licenses',
    command: ['assign'],
    summary: 'Redeem an unused license onto an existing user',
    params: [KEY_ARG, usernameFlag('user', 'User who receives the license')],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl licenses assign ABCDEF-123456 --username alice',
    source: 'E',
  },
  {
    type: 'activate',
    group: 'licenses',
    command: ['activate'],
    summary: 'Create a user from an unused license, as client registration does',
    params: [
      KEY_ARG,
      usernameFlag('user', 'Username of the new user'),
      passwordFlag('pass', true, 'Password of the new user'),
      { wire: 'hwid', flag: 'hwid', type: 'string', required: false, description: 'HWID to bind the user to' },
    ],
    // E nests the whole register result in info.subscriptions; the fields are D23's.
    // `subscriptions`: what the server's register gave (D23: the login's list; E nests more).
    response: { kind: 'object', key: 'info', fields: [col('username', 'USERNAME', 'id'), { ...col('subscriptions', 'SUBSCRIPTIONS'), wire: 'json' }, orNull(col('ip', 'IP'))] },
    effect: 'write',
    // Success is always JSON, but E's failures honour format=text (docs/protocol/seller-api.md §3.6).
    textFormat: true,
    example: 'kactl licenses activate ABCDEF-123456 --username alice --password "s3cret!" --hwid S-1-5-21-1004',
    source: 'E',
  },
];
