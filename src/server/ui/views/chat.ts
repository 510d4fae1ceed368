/** Chat channels with their last messages (the 50 a channel keeps), and who is muted. */
import { getChatMessages, listChannels, listMutes } from '../../domain/chat.js';
import { formatUtc, html, joinHtml, type Html } from '../../client/page-layout.js';
import { shownDuration } from '../../domain/shown.js';
import { table, whenCell } from '../layout.js';
import type { DashboardView, ViewContext } from '../view.js';

function show(ctx: ViewContext): { body: Html } {
  const { page, app } = ctx;
  const channels = listChannels(page.store, app.id);
  if (channels.length === 0) return { body: html`<p class="note">No chat channels. The seller API's <code>addchannel</code> makes one.</p>` };
  const sections = channels.map((channel) => {
    const messages = getChatMessages(page.store, app.id, channel.name);
    const rows = messages.map((message) => html`<tr>${whenCell(formatUtc(message.timestamp))}<td>${message.author}</td><td><pre>${message.message}</pre></td></tr>`);
    const delay = channel.delay === 0 ? 'no delay' : `one message per user every ${shownDuration(channel.delay)}`;
    return html`<h2>${channel.name}</h2><p class="note">${delay}</p>${messages.length === 0 ? html`<p class="note">No messages.</p>` : table(`Messages in ${channel.name}, oldest first`, ['Sent', 'Author', 'Message'], rows)}`;
  });
  const mutes = listMutes(page.store, app.id).filter((mute) => mute.time > page.now);
  const muteRows = mutes.map((mute) => html`<tr><td>${mute.user}</td>${whenCell(formatUtc(mute.time))}</tr>`);
  return {
    body: html`${joinHtml(sections)}<h2>Muted</h2>${mutes.length === 0 ? html`<p class="note">Nobody is muted.</p>` : table('Muted users', ['User', 'Until'], muteRows)}`,
  };
}

export const chatView: DashboardView = { id: 'chat', label: 'Chat', show };
