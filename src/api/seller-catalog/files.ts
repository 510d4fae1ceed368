/**
 * `kactl files`: files clients may download (docs/protocol/seller-api.md §3.4). The server fetches the URL
 * itself to measure the file, so `upload` takes a URL, not a local path.
 */
import { REQUIRE_LOGIN } from './shared-params.js';
import type { ParamSpec, SellerOp } from './types.js';
import { col } from './columns.js';

function fileIdArg(wire: string): ParamSpec {
  return { wire, flag: 'id', positional: true, type: 'string', required: true, description: 'File id (6 digits)', completeFrom: 'fetchallfiles' };
}

/** `editfile`'s `authed`: E reads it without requiring it; absent, the file keeps its login rule. */
const FILE_LOGIN_RULE: ParamSpec = {
  ...REQUIRE_LOGIN,
  required: false,
  negatable: true,
  description: 'Only logged-in users may download it (sends authed=1; --no-require-login sends 0; neither keeps the current rule)',
};

const FILE_URL: ParamSpec = {
  wire: 'url',
  flag: 'url',
  type: 'string',
  required: true,
  description: 'Direct download URL, ending in the file name (no Discord or local URLs; at most 75 MB)',
};

export const FILES_OPS: readonly SellerOp[] = [
  {
    type: 'fetchallfiles',
    group: 'files',
    command: ['list'],
    summary: 'List the files',
    params: [],
    response: { kind: 'list', key: 'files', columns: [col('id', 'ID', 'id'), col('url', 'URL')], emptyMessage: 'No files Found' },
    effect: 'read',
    example: 'kactl files list',
    source: 'E',
  },
  {
    type: 'fetchfile',
    group: 'files',
    command: ['get'],
    summary: "Show a file's URL, name, size and login rule",
    params: [fileIdArg('id')],
    response: { kind: 'object', key: 'file', fields: [col('id', 'ID', 'id'), col('name', 'NAME'), col('size', 'SIZE'), col('url', 'URL'), col('authed', 'LOGIN NEEDED', 'boolean')] },
    effect: 'read',
    example: 'kactl files get 482913',
    source: 'E',
  },
  {
    type: 'upload',
    group: 'files',
    command: ['upload'],
    summary: 'Add a file from a URL; the server downloads it once to measure it',
    params: [FILE_URL],
    // The answer's message is "File ID <id> Uploaded Successfully", with the id beside it; the
    // 2022 open-source server sends the message alone (docs/protocol/seller-api.md §1.6).
    response: { kind: 'value', key: 'id', fromMessage: /^File ID (\S+) Uploaded Successfully/ },
    effect: 'write',
    textFormat: true,
    example: 'kactl files upload --url https://files.example.com/app-1.2.zip',
    source: 'E',
  },
  {
    type: 'editfile',
    group: 'files',
    command: ['edit'],
    summary: 'Point a file at a new URL, and change its login rule if asked',
    params: [fileIdArg('id'), FILE_URL, FILE_LOGIN_RULE],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl files edit 482913 --url https://files.example.com/app-1.3.zip --require-login',
    source: 'E',
  },
  {
    type: 'delfile',
    group: 'files',
    command: ['delete'],
    summary: 'Delete a file',
    params: [fileIdArg('fileid')],
    response: { kind: 'message' },
    effect: 'delete-one',
    backupFrom: 'fetchallfiles',
    textFormat: true,
    example: 'kactl files delete 482913',
    source: 'E',
  },
  {
    type: 'delallfiles',
    group: 'files',
    command: ['delete'],
    selector: 'all',
    summary: 'Delete every file',
    params: [],
    response: { kind: 'message' },
    effect: 'bulk',
    backupFrom: 'fetchallfiles',
    textFormat: true,
    example: 'kactl files delete --all',
    source: 'E',
  },
];
