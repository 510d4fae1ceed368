/**
 * `kactl vars`: global variables, app-wide values clients can read (docs/protocol/seller-api.md §3.5).
 * A variable's name is its id: `editvar` calls it `varid`, the others `name`.
 */
import { REQUIRE_LOGIN } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col } from './columns.js';

function nameArg(wire: string): ParamSpec {
  return { wire, flag: 'name', positional: true, type: 'string', required: true, description: 'Variable name', completeFrom: 'fetchallvars' };
}

// `--value` is what people type first for a variable's value (`uservars set` takes it as well).
const DATA: ParamSpec = { wire: 'data', flag: 'data', flagAliases: ['value'], type: 'string', required: true, maxLength: 1000, description: 'Value (at most 1000 characters; use files for more)' };

export const VARS_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallvars',
    group: 'vars',
    command: ['list'],
    summary: 'List the global variables',
    params: [],
    // `varid` is the name and `msg` the value.
    response: { kind: 'list', key: 'vars', columns: [col('varid', 'NAME', 'id'), col('msg', 'VALUE'), col('authed', 'LOGIN NEEDED', 'boolean')], emptyMessage: 'No variables Found' },
    effect: 'read',
    example: 'kactl vars list',
    source: 'E',
  },
  {
    type: 'retrvvar',
    group: 'vars',
    command: ['get'],
    summary: "Show a global variable's value",
    params: [nameArg('name')],
    // The value comes back in `message` (with `authed` beside it).
    response: { kind: 'value', key: 'message' },
    effect: 'read',
    example: 'kactl vars get motd',
    source: 'E',
  },
  {
    type: 'addvar',
    group: 'vars',
    command: ['create'],
    summary: 'Create a global variable',
    params: [{ wire: 'name', flag: 'name', type: 'string', required: true, description: 'Variable name' }, DATA, REQUIRE_LOGIN],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl vars create --name motd --data "Welcome back" --require-login',
    source: 'E',
  },
  {
    type: 'editvar',
    group: 'vars',
    command: ['edit'],
    summary: "Replace a global variable's value",
    params: [nameArg('varid'), { ...DATA, description: 'New value (at most 1000 characters)' }],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl vars edit motd --data "Maintenance tonight"',
    source: 'E',
  },
  {
    type: 'delvar',
    group: 'vars',
    command: ['delete'],
    summary: 'Delete a global variable',
    params: [nameArg('name')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallvars',
    textFormat: true,
    example: 'kactl vars delete motd',
    source: 'E',
  },
  {
    type: 'delallvars',
    group: 'vars',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every global variable',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallvars',
    textFormat: true,
    example: 'kactl vars delete --all',
    source: 'E',
  },
];
