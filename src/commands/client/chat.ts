/**
 * `kactl client chat read CHANNEL` and `kactl client chat send CHANNEL MESSAGE` (`chatget`,
 * `chatsend`; 1.2 POST form unless the profile's api is 1.3, as for user variables).
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';

export function registerClientChat(group: Command, ctx: Context): void {
  const chat = group.command('chat').description('read and send chat messages as the logged-in user');

  chat
    .command('read')
    .description("list a channel's messages, oldest first")
    .addArgument(completeFrom(new Argument('<channel>', 'channel name'), { kind: 'seller-list', list: 'fetchallchats' }))
    .addHelpText('after', '\nExamples:\n  $ kactl client chat read general\n  $ kactl client chat read general --json      # the messages as a JSON array')
    .action(async (channel: string) => {
      const body = await (await ctx.clientApi()).call('chatget', { channel });
      const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
      await ctx.output.list(messages, [{ key: 'timestamp', header: 'SENT', kind: 'date' }, { key: 'author' }, { key: 'message' }]);
    });

  chat
    .command('send')
    .description('send a message to a channel')
    .addArgument(completeFrom(new Argument('<channel>', 'channel name'), { kind: 'seller-list', list: 'fetchallchats' }))
    .argument('<message>', 'the message (at most 2000 characters)')
    .addHelpText('after', '\nExamples:\n  $ kactl client chat send general "hello from the test rig"')
    .action(async (channel: string, message: string) => {
      const body = await (await ctx.clientApi()).call('chatsend', { channel, message });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Sent.');
    });
}
