/** Web loader buttons (docs/protocol/seller-api.md §3.12): a label and a value, unique per app. */
import { addLoaderButton, deleteAllLoaderButtons, deleteLoaderButton, listLoaderButtons } from '../domain/loader-buttons.js';
import type { Params } from '../dispatch/params.js';
import { fail } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

function fetchallbuttons(ctx: HandlerContext): Reply {
  const rows = listLoaderButtons(ctx.store, ctx.app.id).map((b) => ({ text: b.text, value: b.value }));
  return listReply(ctx, 'Successfully retrieved buttons', rows);
}

/** The value is the id the loader sends back: no spaces (the page's rule; E does not check it). */
function addbutton(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addbutton', { required: ['text', 'value'] });
  const value = p.value;
  if (/\s/.test(value)) return fail('Invalid parameter: value must not contain spaces');
  const added = addLoaderButton(ctx.store, ctx.app.id, p.text, value);
  // "Succesfully" (sic) is E's spelling, which clients may match.
  return either(added, 'Succesfully added button!', "Failed to add button! You can't have two button with the same value.");
}

function delbutton(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delbutton', { required: ['value'] });
  return either(deleteLoaderButton(ctx.store, ctx.app.id, p.value), 'Successfully deleted button!', 'Failed to delete button!');
}

/**
 * Not in E (bots send `delallbuttons` and `delAllButtons`; both are answered, see index.ts). The
 * messages are unknown; these follow `delbutton`'s.
 */
function delallbuttons(ctx: HandlerContext): Reply {
  return either(deleteAllLoaderButtons(ctx.store, ctx.app.id) > 0, 'Successfully deleted all buttons!', 'Failed to delete all buttons!');
}

export const loaderHandlers: HandlerTable = { fetchallbuttons, addbutton, delbutton, delallbuttons };
