/**
 * `kactl uservars`: variables stored per user (docs/protocol/seller-api.md §3.10, "User variables").
 * `setvar` takes `user=all` for every user: its second entry (selector `all`) drops `user` and
 * fixes `user=all` (`fixedParams`).
 */
import { usernameArg } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col } from './columns.js';

/** The variable's name: `var` on most types, `name` on massUserVarDelete. */
function varName(wire: string): ParamSpec {
  return { wire, flag: 'name', type: 'string', required: true, description: 'Variable name' };
}

const SETVAR_VALUES: readonly ParamSpec[] = [
  varName('var'),
  { wire: 'data', flag: 'data', flagAliases: ['value'], type: 'string', required: true, description: 'Value' },
  { wire: 'readOnly', flag: 'read-only', type: 'bool01', required: false, serverDefault: '0', description: 'The client may read but not overwrite it' },
];

export const USERVARS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchalluservars',
    group: 'uservars',
    command: ['list'],
    summary: "List every user's variables",
    params: [],
    response: { kind: 'list', key: 'vars', columns: [col('user', 'USER', 'id'), col('name', 'NAME', 'id'), col('data', 'VALUE')], emptyMessage: 'No user variables Found' },
    effect: 'read',
    example: 'kactl uservars list',
    source: 'E',
  },
  {
    type: 'getvar',
    group: 'uservars',
    command: ['get'],
    summary: "Show one of a user's variables",
    params: [usernameArg('user'), varName('var')],
    response: { kind: 'value', key: 'response' },
    effect: 'read',
    textFormat: true,
    example: 'kactl uservars get alice --name discord',
    source: 'E',
  },
  {
    type: 'setvar',
    group: 'uservars',
    command: ['set'],
    summary: 'Set a variable for a user, creating or replacing it',
    params: [usernameArg('user', 'Username of the end user ("all" is refused: use --all)'), ...SETVAR_VALUES],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl uservars set alice --name discord --data alice#0001 --read-only',
    source: 'E',
  },
  {
    type: 'setvar',
    group: 'uservars',
    command: ['set'],
    selector: 'all',
    summary: 'Set a variable for every user, replacing their values (sends user=all)',
    fixedParams: { user: 'all' },
    params: SETVAR_VALUES,
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchalluservars',
    textFormat: true,
    example: 'kactl uservars set --all --name tier --data gold',
    source: 'E',
  },
  {
    type: 'deluservar',
    group: 'uservars',
    command: ['delete'],
    summary: "Delete one of a user's variables",
    params: [usernameArg('user'), varName('var')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchalluservars',
    textFormat: true,
    example: 'kactl uservars delete alice --name discord',
    source: 'E',
  },
  {
    type: 'massUserVarDelete',
    group: 'uservars',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete a variable from every user',
    // The Telegram bot sends the name as `var=` (docs/protocol/seller-api.md §2); the sandbox accepts both.
    params: [{ ...varName('name'), wireAliases: ['var'] }],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchalluservars',
    textFormat: true,
    example: 'kactl uservars delete --all --name discord',
    source: 'E',
  },
];
