/**
 * `kactl subs`: the application's subscription definitions; a subscription's level matches the
 * level of the licenses that grant it (docs/protocol/seller-api.md §3.9). A user's own subscriptions are under
 * `kactl users subscriptions / extend / subtract / delete-sub`.
 */
import type { ParamSpec, SellerOp } from './types.js';
import { col } from './columns.js';

/** The subscription an operation acts on; the wire name differs per type (`name`, `sub`, `subscription`). */
function subArg(wire: string): ParamSpec {
  return { wire, flag: 'name', positional: true, type: 'string', required: true, description: 'Subscription name', completeFrom: 'fetchallsubs' };
}

const LEVEL: ParamSpec = { wire: 'level', flag: 'level', type: 'integer', required: true, maxLength: 12, description: 'Level; licenses of this level grant it' };

export const SUBS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallsubs',
    group: 'subs',
    command: ['list'],
    summary: 'List the subscriptions and their levels',
    params: [],
    response: { kind: 'list', key: 'subs', columns: [col('name', 'NAME', 'id'), col('level', 'LEVEL', 'level')], emptyMessage: 'No subscriptions found' },
    effect: 'read',
    example: 'kactl subs list',
    source: 'E',
  },
  {
    type: 'addsub',
    group: 'subs',
    command: ['create'],
    summary: 'Create a subscription',
    params: [{ wire: 'name', flag: 'name', type: 'string', required: true, description: 'Subscription name' }, LEVEL],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl subs create --name premium --level 2',
    source: 'E',
  },
  {
    type: 'editsub',
    group: 'subs',
    command: ['edit'],
    summary: "Change a subscription's level",
    // The Telegram bot sends the name as `name=` (docs/protocol/seller-api.md §2); the sandbox accepts both.
    params: [{ ...subArg('sub'), wireAliases: ['name'] }, { ...LEVEL, description: 'New level' }],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl subs edit premium --level 3',
    source: 'E',
  },
  {
    type: 'delappsub',
    group: 'subs',
    command: ['delete'],
    summary: 'Delete a subscription',
    params: [subArg('name')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallsubs',
    textFormat: true,
    example: 'kactl subs delete premium',
    source: 'E',
  },
  {
    type: 'pausesub',
    group: 'subs',
    command: ['pause'],
    summary: 'Freeze every active user subscription of this name',
    params: [subArg('subscription')],
    response: { kind: 'message' },
    // Reversible with unpause and loses nothing.
    effect: 'write',
    textFormat: true,
    example: 'kactl subs pause premium',
    source: 'E',
  },
  {
    type: 'unpausesub',
    group: 'subs',
    command: ['unpause'],
    summary: 'Restart the frozen user subscriptions of this name',
    params: [subArg('subscription')],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl subs unpause premium',
    source: 'E',
  },
  {
    type: 'countsubs',
    group: 'subs',
    command: ['count'],
    summary: 'Count the unexpired user subscriptions of this name',
    params: [subArg('name')],
    response: { kind: 'value', key: 'count', wire: 'numeric' },
    effect: 'read',
    example: 'kactl subs count premium',
    source: 'E',
  },
];
