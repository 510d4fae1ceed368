/**
 * Files (docs/protocol/seller-api.md §3.4): records of URLs the client `file` call downloads. `upload` and
 * `editfile` fetch the URL once to measure it (fetch-size.ts); loopback URLs are allowed in the
 * sandbox (url-rules.ts).
 */
import { createFile, deleteAllFiles, deleteFile, fileNameFromUrl, findFile, humanSize, listFiles, updateFile } from '../domain/files.js';
import type { Params } from '../dispatch/params.js';
import { fail, failWithStatus, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { measureUrl, type Measured } from './fetch-size.js';
import { wantsText } from './params.js';
import { checkFetchableUrl, isDiscordUrl } from './url-rules.js';
import { checkedParams } from './checked-params.js';

const LOCAL_URL_MESSAGE = "URL can't be a local path! Must be a remote URL accessible by the open internet";

/** Checks and measures `text`; the URL and its size, or the refusal. */
async function fetchForFile(ctx: HandlerContext, text: string): Promise<{ url: URL; size: string } | { reply: Reply }> {
  const checked = checkFetchableUrl(text);
  if ('problem' in checked) return { reply: fail(checked.problem === 'local' ? LOCAL_URL_MESSAGE : 'URL is invalid') };
  if (isDiscordUrl(text)) return { reply: fail("Discord's developers made files expire after 24 hours, use catbox.moe or pages.dev instead!") };
  const measured: Measured = await measureUrl(checked.url, ctx.signal);
  if (!measured.ok) {
    return { reply: fail(measured.reason === 'too-large' ? 'File size limit is 75 MB.' : `Failed to fetch file. HTTP Status: ${measured.status}`) };
  }
  return { url: checked.url, size: humanSize(measured.bytes) };
}

/** `upload`: new file with a random 6-digit id, login required by default (E ignores `authed` here). */
async function upload(ctx: HandlerContext, params: Params): Promise<Reply> {
  const text = checkedParams(params, 'upload', { required: ['url'] }).url;
  const fetched = await fetchForFile(ctx, text);
  if ('reply' in fetched) return fetched.reply;
  const file = createFile(ctx.store, ctx.app.id, { url: text, size: fetched.size }, ctx.now);
  const sentence = `File ID ${file.id} Uploaded Successfully`;
  const answer = ok(sentence, { id: file.id });
  return wantsText(params) ? { ...answer, text: sentence } : answer;
}

/**
 * `editfile`: a new URL (measured again, name taken from it) for an existing file, and its login
 * rule when `authed` is given; without it the file keeps its rule (E reads `authed` without
 * requiring it, and the official Telegram bot sends the URL alone).
 */
async function editfile(ctx: HandlerContext, params: Params): Promise<Reply> {
  const p = checkedParams(params, 'editfile', { required: ['id', 'url'], optional: ['authed'], flags: ['authed'] });
  const id = p.id;
  const file = findFile(ctx.store, ctx.app.id, id);
  if (file === undefined) return fail('Failed to update file');
  const text = p.url;
  const fetched = await fetchForFile(ctx, text);
  if ('reply' in fetched) return fetched.reply;
  const done = updateFile(ctx.store, ctx.app.id, id, { url: text, name: fileNameFromUrl(text), size: fetched.size, authed: p.authed ?? file.authed === 1 });
  return either(done, 'Successfully updated file', 'Failed to update file');
}

function fetchfile(ctx: HandlerContext, params: Params): Reply {
  const id = checkedParams(params, 'fetchfile', { required: ['id'] }).id;
  const file = findFile(ctx.store, ctx.app.id, id);
  if (file === undefined) return failWithStatus(406, `No file Found with ID: ${id}`);
  return ok('Successfully retrieved file', { file: { id: file.id, url: file.url, name: file.name, size: file.size, authed: String(file.authed) } });
}

function fetchallfiles(ctx: HandlerContext): Reply {
  return listReply(ctx, 'Successfully retrieved files', listFiles(ctx.store, ctx.app.id).map((f) => ({ id: f.id, url: f.url })));
}

/** E's sentences, including the odd failure wording of a single delete. */
function delfile(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delfile', { required: ['fileid'] });
  return either(deleteFile(ctx.store, ctx.app.id, p.fileid), 'Successfully deleted files!', 'Failed to delete all files!');
}

function delallfiles(ctx: HandlerContext): Reply {
  return either(deleteAllFiles(ctx.store, ctx.app.id) > 0, 'Successfully deleted all files!', 'Failed to delete all files!');
}

export const fileHandlers: HandlerTable = { upload, editfile, fetchfile, fetchallfiles, delfile, delallfiles };
