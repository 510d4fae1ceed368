/** `kactl loader`: buttons of the web loader (docs/protocol/seller-api.md §3.12). */
import type { SellerOp } from './types.js';
import { col } from './columns.js';

export const LOADER_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallbuttons',
    group: 'loader',
    command: ['list'],
    summary: 'List the web loader buttons',
    params: [],
    response: { kind: 'list', key: 'buttons', columns: [col('text', 'TEXT'), col('value', 'VALUE', 'id')], emptyMessage: 'No buttons found' },
    effect: 'read',
    example: 'kactl loader list',
    source: 'E',
  },
  {
    type: 'addbutton',
    group: 'loader',
    command: ['create'],
    summary: 'Add a web loader button',
    params: [
      { wire: 'text', flag: 'text', type: 'string', required: true, description: 'Label shown on the button' },
      { wire: 'value', flag: 'value', type: 'string', required: true, description: 'Button id sent to the program (no spaces, unique)' },
    ],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl loader create --text "Launch game" --value launch',
    source: 'E',
  },
  {
    type: 'delbutton',
    group: 'loader',
    command: ['delete'],
    summary: 'Delete a web loader button',
    params: [{ wire: 'value', flag: 'value', positional: true, type: 'string', required: true, description: 'Button id' }],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallbuttons',
    textFormat: true,
    example: 'kactl loader delete launch',
    source: 'E',
  },
  {
    // Not in E. The Discord bot (2025-04) sends `delallbuttons`, the Telegram bot (2025-12)
    // `delAllButtons`; we send the first, which matches the group's other lower-case types.
    type: 'delallbuttons',
    typeAliases: ['delAllButtons'],
    group: 'loader',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every web loader button',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallbuttons',
    textFormat: true,
    example: 'kactl loader delete --all',
    source: 'C',
  },
];
